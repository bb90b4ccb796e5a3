// Klaverjas on the table: four seats around the trick, the viewer at the bottom; trump,
// scores, the last trick and each agent's latest thought. A person plays from its own hand:
// every card is a button (legal ones marked, the others dimmed but still sent, so the
// server's refusal says why); trump calls go in the move bar. Only what the frame JSON
// holds is drawn: hands the perspective may not see arrive as counts and stay card backs.
import { h, seatColor, seatInk, pct } from "../api.js";

const RED = new Set(["♥", "♦"]);
const SUIT_NAMES = { "♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades" };
const TEAMS = [[0, 2], [1, 3]];
const TEAM_LABELS = ["N–S", "E–W"];
const TEAM_NAMES = ["North–South", "East–West"];
// Grid areas clockwise from the viewer at the bottom.
const PLACES = ["bottom", "left", "top", "right"];

// The matrix is the point of this game's page: open it with the game.
export const showMatrix = true;

// The card the person last activated: focus goes back to it after a refusal redraws the hand.
let lastCard = null;
// The turn (and refusal) the hand last took the focus for: it takes it once, not on every redraw.
let focusedFor = null;

export function parseCard(text) {
  const m = /^(10|[2-9JQKA])([♣♦♥♠])$/.exec(text || "");
  return m ? { rank: m[1], suit: m[2], text } : null;
}

function cardFace(card, tag = "span", attrs = {}) {
  const red = RED.has(card.suit);
  return h(tag, { ...attrs, class: `kj-card${red ? " red" : ""} ${attrs.class || ""}`.trim(),
    "data-card": card.text, title: attrs.title || card.text },
    h("span", { class: "rank" }, card.rank), h("span", { class: "suit" }, card.suit));
}

function cardBack() { return h("span", { class: "kj-card back", "aria-hidden": "true" }); }

function seatOf(data) {
  if (data.perspective !== null && data.perspective !== undefined) return data.perspective;
  return data.human ?? 2;  // the spectator looks from South
}

function placeOf(seat, bottom) { return PLACES[(seat - bottom + 4) % 4]; }

// Each seat's latest decision in the log the client holds (a seat's log has only its own thoughts).
function latestDecisions(log) {
  const out = {};
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e && e.type === "decision" && !(e.seat in out)) out[e.seat] = e;
  }
  return out;
}

function thoughtLine(dec) {
  if (!dec) return null;
  if (dec.human) return h("div", { class: "kj-thought" }, `played ${dec.action}`);
  if (dec.thought) return h("div", { class: "kj-thought", title: dec.thought }, `“${dec.thought}”`);
  return null;
}

function plate(data, pub, s, decisions) {
  const names = data.seat_names;
  const you = data.human === s ? " (you)" : data.perspective === s ? " ◉" : "";
  const chips = [];
  if (pub.dealer === s) chips.push(h("span", { class: "chip dealer", title: "the dealer" }, "dealer"));
  if (pub.leader === s) chips.push(h("span", { class: "chip leader", title: "leads this trick" }, "leads"));
  if (data.current_player === s) chips.push(h("span", { class: "chip turn" }, "to move"));
  const playing = pub.playing_team !== null && pub.playing_team !== undefined && TEAMS[pub.playing_team].includes(s);
  const strat = (data.strategies || [])[s] || "";
  const count = (pub.hand_sizes || [])[s] ?? 0;
  return h("div", { class: "kj-plate" + (data.current_player === s ? " to-move" : ""), style: `--c:${seatColor(s)};--ci:${seatInk(s)}` },
    h("span", { class: "name" }, names[s] + you),
    playing ? h("span", { class: "chip playing", title: "the playing team" }, "playing") : null,
    ...chips,
    h("span", { class: "hint" }, `${strat} · ${count} card${count === 1 ? "" : "s"}`),
    thoughtLine(decisions[s]));
}

// A seat's hand: face up when its view is in the frame, else one back per card it holds.
function handOf(data, pub, s, ctx) {
  const view = data.table.views[String(s)];
  if (!view) {
    const n = (pub.hand_sizes || [])[s] ?? 0;
    return h("div", { class: "kj-hand hidden-hand", role: "img", "aria-label": `${data.seat_names[s]}: ${n} cards, face down` },
      ...Array.from({ length: n }, cardBack));
  }
  const cards = view.hand.map(parseCard).filter(Boolean);
  const playable = data.human === s && data.current_player === s && data.legal_actions.length &&
    data.legal_actions.every((a) => parseCard(a));
  // Only cards are marked: while trump is chosen the legal actions are calls.
  const legal = new Set((playable ? data.legal_actions : view.legal_actions || []).filter(parseCard));
  const marks = legal.size > 0;
  const box = h("div", { class: "kj-hand" + (playable ? " playable" : ""), role: "group",
    "aria-label": playable ? "your hand: Tab to a card, Enter or Space plays it" : `${data.seat_names[s]}'s hand` });
  for (const card of cards) {
    const ok = legal.has(card.text);
    const cls = marks ? (ok ? "legal" : "illegal") : "";
    if (!playable) { box.append(cardFace(card, "span", { class: cls })); continue; }
    const name = `${card.rank} of ${SUIT_NAMES[card.suit]}`;
    box.append(cardFace(card, "button", {
      type: "button", class: cls,
      "aria-label": ok ? `play ${name}` : `${name}: not a legal card now (play it to hear why)`,
      title: ok ? `play ${card.text}` : `${card.text} is not legal now`,
      onclick: () => { lastCard = card.text; ctx.move(card.text); },
    }));
  }
  if (ctx.moving) box.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  return box;
}

function trickBox(data, pub, bottom) {
  const box = h("div", { class: "kj-trick", "aria-label": "the trick on the table" });
  const plays = new Map((pub.trick || []).map(([s, c]) => [s, c]));
  for (let s = 0; s < 4; s++) {
    const slot = h("div", { class: `slot ${placeOf(s, bottom)}`, "data-seat": s });
    const text = plays.get(s);
    if (text) {
      const extra = pub.trick_winning === s ? " winning" : "";
      slot.append(cardFace(parseCard(text), "span", { class: "played" + extra,
        title: `${data.seat_names[s]} played ${text}${extra ? " (winning so far)" : ""}` }));
    }
    const tags = [];
    if (pub.leader === s) tags.push("leads");
    if (pub.trick_winning === s) tags.push("winning");
    slot.append(h("span", { class: "who", style: `color:${seatInk(s)}` },
      data.seat_names[s][0] + (tags.length ? ` · ${tags.join(", ")}` : "")));
    box.append(slot);
  }
  const trump = pub.trump;
  box.append(h("div", { class: "felt-mid" }, trump ? h("span", { class: "kj-trump-mini" + (RED.has(trump) ? " red" : "") }, trump) : ""));
  return box;
}

function infoBox(data, pub) {
  const trump = pub.trump;
  const names = data.seat_names;
  return h("div", { class: "kj-info" },
    h("div", { class: "label" }, "Trump"),
    h("div", { class: "kj-trump" + (trump && RED.has(trump) ? " red" : ""), "data-trump": trump || "",
      title: trump ? `trump: ${SUIT_NAMES[trump]}` : "trump not chosen yet" }, trump || "?"),
    h("div", {}, trump ? `${SUIT_NAMES[trump]}` : "not chosen yet"),
    pub.playing_team !== null && pub.playing_team !== undefined
      ? h("div", { class: "playing" }, `${TEAM_NAMES[pub.playing_team]} play`) : null,
    pub.dealer >= 0 ? h("div", { class: "hint" }, `Deal ${pub.deal} · dealer ${names[pub.dealer]}`) : null);
}

// One column per team and one row per count: narrow enough for the table's corner.
function scoreBox(pub) {
  const playing = (team) => (pub.playing_team === team ? "playing" : "");
  const t = h("table", { class: "kj-score", "aria-label": "score per team" },
    h("tr", {}, h("th", {}, "team"), ...[0, 1].map((team) =>
      h("th", { class: playing(team), "data-team": team }, TEAM_LABELS[team] + (pub.playing_team === team ? " ★" : "")))));
  const rows = [["points", "card points this deal", pub.points], ["roem", "roem this deal", pub.roem],
    ["tricks", "tricks this deal", pub.tricks], ["match", "match total", pub.scores]];
  for (const [label, about, counts] of rows) {
    t.append(h("tr", {}, h("th", { title: about }, label), ...[0, 1].map((team) =>
      h("td", { class: [playing(team), label === "match" ? "total" : ""].join(" ").trim() || null },
        String((counts || [0, 0])[team])))));
  }
  return h("div", { class: "kj-scores" }, t);
}

function lastTrickBox(data, pub, bottom) {
  const box = h("div", { class: "kj-last", "aria-label": "the last trick" }, h("div", { class: "label" }, "Last trick"));
  if (!pub.last_trick) { box.append(h("div", { class: "hint" }, "none yet this deal")); return box; }
  const mini = h("div", { class: "mini" });
  const won = pub.last_trick_won;
  for (const [s, text] of pub.last_trick) {
    const c = cardFace(parseCard(text), "span", { class: `small ${placeOf(s, bottom)}${won && won.winner === s ? " winner" : ""}`,
      title: `${data.seat_names[s]}: ${text}` });
    mini.append(c);
  }
  box.append(mini);
  if (won) {
    box.append(h("div", { class: "won" }, `${data.seat_names[won.winner]} took it: ${won.points} points`,
      won.roem ? h("b", { class: "roem" }, ` + ${won.roem} roem`) : " · no roem"));
  }
  return box;
}

function gameOver(data) {
  if (!data.terminal || !data.winners) return null;
  const teams = TEAMS.map((seats) => seats.every((s) => data.winners.includes(s)));
  const text = teams[0] && teams[1] ? "a tie" : `${TEAM_NAMES[teams[0] ? 0 : 1]} win`;
  return h("div", { class: "kj-over", role: "status" }, `Game over · ${text}`);
}

// The game's refusal, reason first: "… (you must follow ♥)" reads as "You must follow ♥".
function refusal(message) {
  const m = /\(([^()]+)\)\s*$/.exec(message);
  const reason = m ? m[1] : message;
  return h("div", { class: "kj-refusal", role: "alert" },
    h("b", {}, reason.charAt(0).toUpperCase() + reason.slice(1)),
    m ? h("div", { class: "hint" }, message) : null,
    h("div", { class: "hint" }, "Nothing was played: choose again."));
}

export function renderTable(el, data, ctx) {
  const views = data.table.views;
  const pub = Object.values(views)[0] || {};
  const bottom = seatOf(data);
  const decisions = latestDecisions(ctx.log || []);
  const root = h("div", { class: "kj", "data-perspective": data.perspective ?? "spectator" });
  root.append(infoBox(data, pub), scoreBox(pub), trickBox(data, pub, bottom), lastTrickBox(data, pub, bottom));
  for (let s = 0; s < 4; s++) {
    const place = placeOf(s, bottom);
    root.append(h("div", { class: `kj-seat ${place} seat-${s}`, "data-seat": s },
      plate(data, pub, s, decisions),
      place === "bottom" && ctx.error ? refusal(ctx.error) : null,
      handOf(data, pub, s, ctx)));
  }
  const over = gameOver(data);
  if (over) root.append(over);
  const hadFocus = el.contains(document.activeElement) ? document.activeElement.dataset.card : undefined;
  el.replaceChildren(root);
  // After a refusal, back to the card tried last; else the first legal one.
  const buttons = [...root.querySelectorAll(".kj-hand.playable button:not(:disabled)")];
  if (hadFocus) lastCard = hadFocus;
  const target = buttons.find((b) => b.dataset.card === lastCard) || buttons.find((b) => b.classList.contains("legal"));
  takeFocus(target, data, ctx, hadFocus !== undefined);
}

// Keyboard play: at the person's turn (and after a refusal) the focus lands on its choices,
// once per turn, not on every redraw, and never while it types or picks in a menu.
function takeFocus(target, data, ctx, keep = false) {
  if (!target) return;
  const turn = `${data.session}:${data.frame}:${ctx.error || ""}`;
  const active = document.activeElement;
  const typing = active && ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName);
  if (keep || (focusedFor !== turn && !typing)) {
    focusedFor = turn;
    target.focus();
  }
}

// Trump calls (and pass) as buttons in the move bar; cards are played from the hand.
export function renderMoves(el, data, ctx) {
  const calls = data.legal_actions.filter((a) => !parseCard(a));
  if (!calls.length) return false;
  const box = h("div", {}, h("h3", {}, "Your turn: choose trump" + (calls.includes("pass") ? " or pass" : "")));
  const row = h("div", { class: "actions kj-calls" });
  for (const a of calls) {
    const suit = a.replace(/^trump\s+/, "");
    const label = a === "pass" ? "pass" : suit;
    row.append(h("button", { type: "button", class: "kj-call" + (RED.has(suit) ? " red" : ""), "data-action": a,
      "aria-label": a === "pass" ? "pass" : `trump ${SUIT_NAMES[suit] || suit}`, onclick: () => ctx.move(a) }, label));
  }
  box.append(row);
  const hadFocus = el.contains(document.activeElement) ? document.activeElement.dataset.action : undefined;
  el.replaceChildren(box);
  const target = row.querySelector(`button[data-action="${hadFocus}"]`) || row.querySelector("button");
  takeFocus(target, data, ctx, hadFocus !== undefined);
  return true;
}

// Who can hold what, per suit: for each card not yet played and each seat, whether the
// chosen agent knows the seat holds it (●), thinks it possible (its probability), or
// knows it cannot (·). The true holder is outlined when the perspective may see it.
export function renderMatrix(el, m, agent, seatNames, data) {
  if (!m.rows.length) { el.replaceChildren(h("div", { class: "hint" }, "No cards in play.")); return; }
  const trump = data && Object.values(data.table.views)[0]?.trump;
  const bySuit = new Map();
  for (const row of m.rows) {
    const card = parseCard(row.subject);
    if (!card) continue;
    if (!bySuit.has(card.suit)) bySuit.set(card.suit, []);
    bySuit.get(card.suit).push({ card, row });
  }
  // Every seat, also one the API leaves out because it can hold none of these cards.
  const seats = seatNames;
  const blocks = h("div", { class: "kj-matrix" });
  for (const [suit, rows] of bySuit) {
    const t = h("table", { class: "knowledge kj-suit", "data-suit": suit });
    t.append(h("tr", {},
      h("th", { class: `suit${RED.has(suit) ? " red" : ""}`, title: SUIT_NAMES[suit] }, suit + (suit === trump ? " trump" : "")),
      ...seats.map((s) => h("th", { title: s, style: `color:${seatInk(seatNames.indexOf(s))}` }, s[0]))));
    for (const { card, row } of rows) {
      const probs = row.probabilities[agent] || {};
      const tr = h("tr", { "data-card": card.text }, h("td", { class: "sub" + (RED.has(suit) ? " red" : "") }, card.text));
      for (const s of seats) {
        const p = probs[s] || 0;
        const state = p >= 1 - 1e-9 ? "known" : p > 0 ? "possible" : "impossible";
        const text = state === "known" ? "●" : state === "possible" ? pct(p) : "·";
        const says = state === "known" ? `knows ${s} holds ${card.text}` :
          state === "possible" ? `${s} may hold ${card.text} (${pct(p)})` : `knows ${s} cannot hold ${card.text}`;
        const td = h("td", { class: state, "data-seat": s, title: `${agent} ${says}` }, text);
        if (state === "possible") td.style.background = `color-mix(in srgb, ${seatColor(seatNames.indexOf(agent))} ${Math.round(10 + 60 * p)}%, white)`;
        if (row.true_world === s) td.classList.add("truth");
        tr.append(td);
      }
      t.append(tr);
    }
    blocks.append(t);
  }
  el.replaceChildren(
    h("div", { class: "hint" }, `What ${agent} knows about each card not yet played: ● holds it for sure · a probability: may hold it · “·”: cannot hold it` +
      (m.perspective === null ? " · outlined: the true holder (the spectator sees it)" : "") + "."),
    blocks);
}
