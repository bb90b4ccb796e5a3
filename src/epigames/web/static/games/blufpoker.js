// Blufpoker on the table: the cup with the dice under it (face up only where this
// perspective has looked), the dice outside it, the bid to beat as dice, and each seat's
// penalties. Only the frame JSON is drawn: a cup nobody in this perspective has seen stays
// closed. Moves are the generic buttons (one per legal action).
import { svg, h, seatColor, seatInk } from "../api.js";
import { dieSvg, renderMoves as genericMoves } from "./generic.js";

const PHASE_TEXT = {
  decide: "believes the bid or calls", roll: "rolls dice", bid: "bids", over: "the game is over",
  "poker-keep": "plays poker: keeps dice", "poker-throw": "plays poker: throws", throw: "throws the dice",
};

function digits(text) { return text ? String(text).split("").map(Number) : []; }

// `faces` minus the faces in `take`, as multisets.
function minus(faces, take) {
  const rest = [...faces];
  for (const t of take) { const i = rest.indexOf(t); if (i >= 0) rest.splice(i, 1); }
  return rest;
}

// Dice in a row with one name for screen readers ("dice 6 5 5"); null faces are hidden dice.
function diceRow(faces, label, size = 44) {
  const row = h("span", { class: "bp-dice", role: "img", "aria-label": `${label}: ${faces.map((f) => f ?? "hidden").join(" ") || "none"}` });
  for (const f of faces) {
    const d = f === null ? hiddenDie(size) : dieSvg(f, size);
    d.setAttribute("aria-hidden", "true");
    row.append(d);
  }
  return row;
}

function hiddenDie(size) {
  const s = svg("svg", { width: size, height: size, viewBox: "0 0 30 30", class: "die hidden-die" });
  s.append(svg("rect", { x: 1, y: 1, width: 28, height: 28, rx: 6, fill: "#3b4757", stroke: "#1d2530", "stroke-width": 1.5 }));
  s.append(svg("text", { x: 15, y: 20.5, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: "#e8eef5" }, "?"));
  return s;
}

// The cup, upside down on the table; lifted (tilted up) when this perspective saw the dice.
function cupSvg(open) {
  const s = svg("svg", { width: 120, height: 92, viewBox: "0 0 120 92", class: "bp-cup", "aria-hidden": "true" });
  const g = svg("g", open ? { transform: "rotate(-14 60 46) translate(0 -6)" } : {});
  g.append(svg("path", { d: "M32 8 L88 8 L98 80 L22 80 Z", fill: "#7a3b12", stroke: "#3d1d08", "stroke-width": 3 }));
  g.append(svg("ellipse", { cx: 60, cy: 80, rx: 38, ry: 7, fill: open ? "#2b1306" : "#9a4c18", stroke: "#3d1d08", "stroke-width": 3 }));
  g.append(svg("path", { d: "M28 50 L92 50", stroke: "#c77a3f", "stroke-width": 4 }));
  s.append(g);
  return s;
}

export function renderTable(el, data) {
  const names = data.seat_names;
  const views = Object.values(data.table.views);
  const pub = views[0] || {};
  const visible = (pub.visible || []).map(Number);
  const seen = views.find((v) => v.cup);
  const under = seen ? minus(digits(seen.cup), visible) : Array(Math.max(0, 3 - visible.length)).fill(null);
  const who = views.filter((v) => v.cup).map((v) => names[v.seat]);
  const bid = digits(pub.bid);

  const seats = h("div", { class: "bp-seats" });
  names.forEach((name, s) => {
    const pen = (pub.penalties || [])[s] || 0;
    const plate = h("div", { class: "bp-seat" + (data.current_player === s ? " to-move" : ""), "data-seat": s,
      style: `--c:${seatColor(s)};--ci:${seatInk(s)}` },
      h("div", { class: "name" }, name + (data.human === s ? " (you)" : "") + (pub.bidder === s ? " · bid" : "")),
      h("div", { class: "bp-pen", title: `${pen} penalt${pen === 1 ? "y" : "ies"}` },
        h("span", { class: "hint" }, "penalties "), h("b", {}, String(pen)), " ",
        h("span", { "aria-hidden": "true" }, "●".repeat(Math.min(pen, 26)))));
    if (data.current_player === s) plate.append(h("div", { class: "doing" }, PHASE_TEXT[pub.phase] || pub.phase));
    seats.append(plate);
  });

  const cup = h("div", { class: "bp-cupbox" }, cupSvg(!!seen),
    diceRow(under, seen ? "under the cup" : "under the cup, unseen"),
    h("div", { class: "label" }, seen ? `under the cup (seen by ${who.join(", ")})` : "under the cup: not seen from here"));
  const outside = h("div", { class: "bp-outside" }, h("div", { class: "label" }, "outside the cup"),
    visible.length ? diceRow(visible, "outside the cup") : h("span", { class: "hint" }, "none"));
  const bidBox = h("div", { class: "bp-bid" }, h("div", { class: "label" }, "bid to beat"),
    bid.length ? diceRow(bid, "bid", 36) : h("span", { class: "hint" }, "none yet"),
    bid.length && pub.bidder >= 0 ? h("div", { class: "hint" }, `by ${names[pub.bidder]}`) : null);
  const poker = (pub.poker_dice || []).length ? h("div", { class: "bp-outside" },
    h("div", { class: "label" }, "poker dice"), diceRow(pub.poker_dice.map(Number), "poker dice")) : null;

  const wrap = h("div", { class: "bp" }, seats, h("div", { class: "bp-middle" }, bidBox, cup, outside, poker));
  if (data.terminal && data.winners) {
    wrap.append(h("div", { class: "gen-over" }, "Game over · winners: " + data.winners.map((w) => names[w]).join(", ")));
  }
  el.replaceChildren(wrap);
}

export function renderMoves(el, data, ctx) { return genericMoves(el, data, ctx); }
