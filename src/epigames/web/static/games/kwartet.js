// Kwartet on the table: hands as SVG cards around an ellipse, laid-down kinds in the middle,
// and the move picker for a person (pick an opponent, then a card of one of your kinds).
import { svg, h, seatColor } from "../api.js";

const W = 1000, H = 620, CARD_W = 46, CARD_H = 66;

export function parseCard(text) {
  const m = /⟨(\d+),(\d+)⟩/.exec(text);
  return m ? { kind: +m[1], member: +m[2], text } : null;
}

function kindColor(kind) {
  return `hsl(${((kind - 1) * 360) / 13}, 65%, 42%)`;
}

// One card: face up when `card` is given, else its back.
export function cardSvg(card, { x = 0, y = 0, scale = 1, highlight = false } = {}) {
  const g = svg("g", { transform: `translate(${x},${y}) scale(${scale})`, class: "card" });
  if (!card) {
    g.append(svg("rect", { width: CARD_W, height: CARD_H, rx: 6, fill: "#274c77", stroke: "#fff", "stroke-width": 2 }));
    g.append(svg("rect", { x: 5, y: 5, width: CARD_W - 10, height: CARD_H - 10, rx: 4, fill: "none",
      stroke: "#8fb3dc", "stroke-width": 1.5, "stroke-dasharray": "3 3" }));
    return g;
  }
  const color = kindColor(card.kind);
  g.append(svg("title", {}, card.text));
  g.append(svg("rect", { width: CARD_W, height: CARD_H, rx: 6, fill: "#fff",
    stroke: highlight ? "#e3a008" : "#333", "stroke-width": highlight ? 3.5 : 1.2 }));
  g.append(svg("rect", { x: 3, y: 3, width: CARD_W - 6, height: 17, rx: 4, fill: color }));
  // Kind and member in the top strip: the part still visible when cards overlap.
  g.append(svg("text", { x: 6, y: 16, fill: "#fff", "font-size": 12.5, "font-weight": 700 },
    `${card.kind}·${card.member}`));
  g.append(svg("text", { x: CARD_W / 2, y: 44, "text-anchor": "middle", fill: color,
    "font-size": 21, "font-weight": 800 }, `${card.kind}`));
  for (let m = 1; m <= 4; m++) {
    g.append(svg("circle", { cx: 8 + (m - 1) * 10, cy: 56, r: 3.6,
      fill: m === card.member ? color : "#fff", stroke: color, "stroke-width": 1.2 }));
  }
  return g;
}

// Where seat i sits: clockwise from South (bottom) around an ellipse.
function seatPlace(i, n) {
  const a = Math.PI / 2 + (i * 2 * Math.PI) / n;
  return { x: W / 2 + 385 * Math.cos(a), y: H / 2 - 10 + 228 * Math.sin(a), cos: Math.cos(a) };
}

function lastEventText(log) {
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e && e.type === "event" && e.public) return e;
  }
  return null;
}

// A phone (the page's one column): the seats stacked, each hand in rows of full-size cards,
// instead of the oval table scaled down until no card can be read.
const PHONE = window.matchMedia("(max-width: 760px)");
// The last drawing, redrawn when the window crosses the phone width (unless replaced since).
let drawn = null;
PHONE.addEventListener("change", () => {
  if (drawn && drawn.root.isConnected) renderTable(drawn.el, drawn.data, drawn.ctx);
});

export function renderTable(el, data, ctx) {
  const root = PHONE.matches ? stackedTable(el, data, ctx) : ovalTable(data, ctx);
  el.replaceChildren(root);
  drawn = { el, data, ctx, root };
}

// What both layouts show: hands (face up where the perspective sees them), counts, scores.
function tableParts(data) {
  const names = data.seat_names, n = names.length;
  const views = data.table.views;
  const anyView = Object.values(views)[0] || {};
  const sizes = anyView.hand_sizes || Array(n).fill(0);
  const hands = names.map((_, s) => {
    const view = views[String(s)];
    return view ? (view.hand || []).map(parseCard) : Array(sizes[s]).fill(null);
  });
  let over = null;
  if (data.terminal && data.winners) {
    over = "Game over · " + (data.winners.length === 1 ? `${names[data.winners[0]]} wins!` :
      `Tie: ${data.winners.map((w) => names[w]).join(" & ")}`);
  }
  return { names, n, sizes, hands, over, scores: anyView.scores || Array(n).fill(0),
    down: anyView.laid_down || [] };
}

// A laid-down kind: two of its cards and a bar in the colour of the seat that laid it down.
function laidDownSvg([kind, seat], x, y, names, scale = 0.9) {
  const g = svg("g", {});
  g.append(cardSvg({ kind, member: 4, text: `kind ${kind}` }, { x: x + 4, y: y - 4, scale }));
  g.append(cardSvg({ kind, member: 1, text: `kind ${kind}` }, { x, y, scale }));
  g.append(svg("rect", { x, y: y + CARD_H * scale, width: CARD_W * scale, height: 6, rx: 3,
    fill: seatColor(seat) }));
  g.append(svg("title", {}, `kind ${kind} laid down by ${names[seat]}`));
  return g;
}

// A seat's name plate: name, strategy, cards held, kinds laid down; clickable to pick a target.
function plateSvg(s, px, py, parts, data, ctx) {
  const plateW = 196, plateH = 40;
  const toMove = data.current_player === s;
  const plate = svg("g", { class: "plate", cursor: ctx.onSeatClick ? "pointer" : "default" });
  plate.append(svg("rect", { x: px, y: py, width: plateW, height: plateH, rx: 20,
    fill: toMove ? "#fff7d6" : "#ffffff", stroke: toMove ? "#e3a008" : seatColor(s),
    "stroke-width": toMove ? 4 : 2.5 }));
  plate.append(svg("circle", { cx: px + 20, cy: py + plateH / 2, r: 9, fill: seatColor(s) }));
  const you = data.human === s ? " (you)" : data.perspective === s ? " ◉" : "";
  plate.append(svg("text", { x: px + 36, y: py + 18, "font-size": 16, "font-weight": 700,
    fill: "#1d2530" }, parts.names[s] + you));
  const strat = (data.strategies || [])[s] || "";
  const size = parts.sizes[s];
  plate.append(svg("text", { x: px + 36, y: py + 33, "font-size": 11.5, fill: "#5b6675" },
    `${strat} · ${size} card${size === 1 ? "" : "s"}`));
  plate.append(svg("text", { x: px + plateW - 14, y: py + 27, "text-anchor": "end",
    "font-size": 20, "font-weight": 800, fill: "#1d2530" }, `${parts.scores[s]}★`));
  if (ctx.onSeatClick) plate.addEventListener("click", () => ctx.onSeatClick(s));
  if (ctx.selectedSeat === s) {
    plate.append(svg("rect", { x: px - 4, y: py - 4, width: plateW + 8, height: plateH + 8, rx: 24,
      fill: "none", stroke: "#c2410c", "stroke-width": 3, "stroke-dasharray": "6 4" }));
  }
  return plate;
}

function ovalTable(data, ctx) {
  const parts = tableParts(data);
  const { names, n, hands } = parts;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "the table" });

  // Centre: laid-down kinds and the latest announcement.
  const centre = svg("g", {});
  const perRow = 7, step = 56;
  parts.down.forEach((laid, k) => {
    const row = Math.floor(k / perRow), col = k % perRow;
    const rowCount = Math.min(perRow, parts.down.length - row * perRow);
    const x = W / 2 - (rowCount * step) / 2 + col * step + 4;
    centre.append(laidDownSvg(laid, x, H / 2 - 100 + row * 82, names));
  });
  root.append(centre);
  const last = lastEventText(ctx.log);
  if (last) {
    const failed = last.kind === "ask" && last.data && last.data.success === false;
    const box = svg("g", { class: "bubble" });
    const text = last.text.length > 70 ? last.text.slice(0, 68) + "…" : last.text;
    const width = Math.min(680, 14 + text.length * 8.6);
    box.append(svg("rect", { x: W / 2 - width / 2, y: H / 2 + 58, width, height: 38, rx: 19,
      fill: failed ? "#fff1f1" : "#fffdf3", stroke: failed ? "#d62839" : "#e3a008", "stroke-width": 2 }));
    box.append(svg("text", { x: W / 2, y: H / 2 + 83, "text-anchor": "middle", "font-size": 16,
      fill: "#1d2530" }, text));
    root.append(box);
  }

  // Seats.
  const picked = ctx.highlightCards || new Set();
  for (let s = 0; s < n; s++) {
    const p = seatPlace(s, n);
    const hand = hands[s];
    const g = svg("g", { class: `seat seat-${s}`, "data-seat": s });
    const side = Math.abs(p.cos) > 0.85;
    const maxLen = side ? 300 : 430;
    const stepC = hand.length > 1 ? Math.min(side ? 20 : 30, (maxLen - CARD_W) / (hand.length - 1)) : 0;
    const rowLen = hand.length ? (hand.length - 1) * stepC + (side ? CARD_H : CARD_W) : 0;
    hand.forEach((card, k) => {
      let x, y;
      if (side) {
        x = p.x - CARD_W / 2 + (p.cos < 0 ? 10 : -10);
        y = p.y - rowLen / 2 + k * stepC - 6;
      } else {
        x = p.x - rowLen / 2 + k * stepC;
        y = p.y - CARD_H / 2 + (p.y > H / 2 ? -28 : 24);
      }
      g.append(cardSvg(card, { x, y, highlight: card && picked.has(card.text) }));
    });
    const plateW = 196, plateH = 40;
    let px = p.x - plateW / 2, py;
    if (side) {
      py = p.y + rowLen / 2 + 2;
      if (py + plateH > H - 4) py = H - plateH - 4;
      if (rowLen === 0) py = p.y - plateH / 2;
    } else {
      py = p.y > H / 2 ? p.y + 18 : p.y - 58;
    }
    px = Math.max(6, Math.min(W - plateW - 6, px));
    py = Math.max(4, py);
    g.append(plateSvg(s, px, py, parts, data, ctx));
    root.append(g);
  }
  if (parts.over) {
    // Under the announcement, above South's hand, at most 460 wide: the top of the table is
    // North's plate (four or six players), the sides' plates reach x 265 and 735 (six).
    // A long tie gets a smaller font (bold glyphs are about 0.6 of it wide).
    const y = H / 2 + 104, size = Math.min(21, 720 / parts.over.length);
    const width = Math.min(460, 32 + 0.6 * size * parts.over.length);
    const banner = svg("g", { class: "over" });
    banner.append(svg("rect", { x: W / 2 - width / 2, y, width, height: 44, rx: 22, fill: "#14202e" }));
    banner.append(svg("text", { x: W / 2, y: y + 22 + size * 0.36, "text-anchor": "middle",
      "font-size": size, "font-weight": 700, fill: "#ffd166" }, parts.over));
    root.append(banner);
  }
  return root;
}

// The phone layout: the result and the latest announcement as text, then a drawing per seat
// (its plate over its hand, in rows of cards at full size: the next card covers only the
// member dots on the right), then the kinds laid down.
function stackedTable(el, data, ctx) {
  const parts = tableParts(data);
  const width = Math.max(280, (el.clientWidth || 360) - 16);
  const box = h("div", { class: "kw-stack" });
  if (parts.over) box.append(h("p", { class: "kw-over" }, parts.over));
  const last = lastEventText(ctx.log);
  if (last) {
    const failed = last.kind === "ask" && last.data && last.data.success === false;
    box.append(h("p", { class: failed ? "kw-news failed" : "kw-news" }, last.text));
  }
  const picked = ctx.highlightCards || new Set();
  parts.hands.forEach((hand, s) => {
    const faceUp = hand.some(Boolean);
    const step = faceUp ? 36 : 14;
    const perRow = Math.max(1, Math.floor((width - 8 - CARD_W) / step) + 1);
    const rows = Math.ceil(hand.length / perRow);
    const height = 52 + rows * (CARD_H + 6);
    const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": `${parts.names[s]}: ${parts.sizes[s]} cards` });
    const g = svg("g", { class: `seat seat-${s}`, "data-seat": s });
    hand.forEach((card, k) => {
      const x = 4 + (k % perRow) * step, y = 52 + Math.floor(k / perRow) * (CARD_H + 6);
      g.append(cardSvg(card, { x, y, highlight: card && picked.has(card.text) }));
    });
    g.append(plateSvg(s, 4, 6, parts, data, ctx));
    root.append(g);
    box.append(root);
  });
  if (parts.down.length) {
    const step = 60, rowH = 86, perRow = Math.max(1, Math.floor((width - 8) / step));
    const height = Math.ceil(parts.down.length / perRow) * rowH + 8;
    const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "kinds laid down" });
    parts.down.forEach((laid, k) => {
      const x = 8 + (k % perRow) * step, y = 10 + Math.floor(k / perRow) * rowH;
      root.append(laidDownSvg(laid, x, y, parts.names, 1));
    });
    box.append(root);
  }
  return box;
}

// The turn the picker last took the focus for: it takes it once per turn, not on every redraw.
let focusedFor = null;

// The person's move picker: opponents as buttons, then the cards it may ask for (buttons
// too, so the whole move can be made with Tab and Enter or Space).
export function renderMoves(el, data, ctx) {
  const names = data.seat_names;
  const asks = data.legal_actions.map((a) => {
    const m = /^ask (\d+) (.+)$/.exec(a);
    return m ? { action: a, target: +m[1], card: parseCard(m[2]) } : null;
  }).filter(Boolean);
  if (!asks.length) return false;
  const targets = [...new Set(asks.map((a) => a.target))];
  if (!targets.includes(ctx.selectedSeat)) ctx.selectedSeat = targets[0];
  const bar = h("div", {}, h("h3", {}, "Your turn: ask an opponent for a card of a kind you hold"));
  const tg = h("div", { class: "targets", role: "group", "aria-label": "ask whom" }, h("span", { class: "hint" }, "Ask "));
  for (const t of targets) {
    tg.append(h("button", { type: "button", class: t === ctx.selectedSeat ? "active target" : "target",
      "data-target": t, "aria-pressed": t === ctx.selectedSeat ? "true" : "false",
      onclick: () => ctx.selectSeat(t) }, names[t]));
  }
  bar.append(tg);
  const cards = h("div", { class: "ask-cards", role: "group", "aria-label": "for which card" }, h("span", { class: "hint" }, "for "));
  for (const a of asks.filter((a) => a.target === ctx.selectedSeat)) {
    const s = svg("svg", { width: 50, height: 70, viewBox: "-2 -2 50 70", "aria-hidden": "true" });
    s.append(cardSvg(a.card));
    cards.append(h("button", { type: "button", class: "ask-card", "data-action": a.action,
      "aria-label": `ask ${names[a.target]} for ${a.card.text}`, onclick: () => ctx.move(a.action) }, s));
  }
  bar.append(cards);
  // A redraw (another opponent chosen) keeps the focus on the button that had it.
  const active = el.contains(document.activeElement) ? document.activeElement : null;
  const keep = active && (active.dataset.target ?? null);
  el.replaceChildren(bar);
  const turn = `${data.session}:${data.frame}`;
  const typing = document.activeElement && ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
  if (keep !== null) {
    bar.querySelector(`button[data-target="${keep}"]`)?.focus();
  } else if (focusedFor !== turn && !typing) {
    focusedFor = turn;
    bar.querySelector(".ask-card")?.focus();
  }
  return true;
}
