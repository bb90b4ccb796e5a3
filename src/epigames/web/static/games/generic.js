// Any game without its own module: each visible seat's view as a card of fields; dice
// fields (cup, dice, roll) are drawn as SVG dice. Moves are buttons, one per legal action.
import { svg, h, seatColor, seatInk } from "../api.js";

const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };

export function dieSvg(value, size = 40) {
  const s = svg("svg", { width: size, height: size, viewBox: "0 0 30 30", class: "die" });
  s.append(svg("rect", { x: 1, y: 1, width: 28, height: 28, rx: 6, fill: "#fff", stroke: "#333", "stroke-width": 1.5 }));
  const v = Number(value);
  if (PIPS[v]) for (const [cx, cy] of PIPS[v]) s.append(svg("circle", { cx: 7 + cx * 8, cy: 7 + cy * 8, r: 2.6, fill: "#1d2530" }));
  else s.append(svg("text", { x: 15, y: 20, "text-anchor": "middle", "font-size": 12 }, "?"));
  return s;
}

function diceValues(v) {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === "string" && /^[1-6 ]+$/.test(v)) return v.replace(/ /g, "").split("");
  return null;
}

function fieldValue(key, v) {
  if (["cup", "dice", "roll", "visible", "poker_dice"].includes(key)) {
    const d = diceValues(v);
    if (d) return h("span", { class: "dice" }, ...d.map((x) => dieSvg(x)));
  }
  if (Array.isArray(v)) return v.map((x) => (Array.isArray(x) ? `(${x.join(", ")})` : String(x))).join("  ");
  if (v === null || v === undefined) return "–";
  if (typeof v === "object") return Object.entries(v).map(([a, b]) => `${a}: ${b}`).join(", ") || "–";
  return String(v);
}

export function renderTable(el, data) {
  const wrap = h("div", { class: "gen-table" });
  for (const [seat, view] of Object.entries(data.table.views)) {
    const s = Number(seat);
    const rows = Object.entries(view).filter(([k]) => !["seat", "current_player", "legal_actions"].includes(k));
    const box = h("div", { class: "gen-seat", "data-seat": s,
      style: `--c:${seatColor(s)};--ci:${seatInk(s)};${data.current_player === s ? "border-color:#e3a008" : ""}` },
      h("div", { class: "name" }, data.seat_names[s] + (data.human === s ? " (you)" : "")));
    const table = h("table", {});
    for (const [k, v] of rows) table.append(h("tr", {}, h("td", {}, k), h("td", {}, fieldValue(k, v))));
    box.append(table);
    wrap.append(box);
  }
  if (data.terminal && data.winners) {
    wrap.append(h("div", { class: "gen-over" },
      "Game over · winners: " + data.winners.map((w) => data.seat_names[w]).join(", ")));
  }
  el.replaceChildren(wrap);
}

// The turn the move buttons last took the focus for: once per turn, not on every redraw.
let focusedFor = null;

export function renderMoves(el, data, ctx) {
  if (!data.legal_actions.length) return false;
  const box = h("div", {}, h("h3", {}, "Your turn: choose a move"));
  const acts = h("div", { class: "actions", role: "group", "aria-label": "your moves" });
  for (const a of data.legal_actions.slice(0, 200)) {
    acts.append(h("button", { type: "button", "data-action": a, onclick: () => ctx.move(a) }, a));
  }
  box.append(acts);
  const had = el.contains(document.activeElement) ? document.activeElement.dataset.action : undefined;
  el.replaceChildren(box);
  // Keyboard play: the first move takes the focus at the person's turn (Tab on to the others),
  // never while the person types or picks in a menu.
  const turn = `${data.session}:${data.frame}`;
  const active = document.activeElement;
  const typing = active && ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName);
  const again = had !== undefined ? acts.querySelector(`button[data-action="${CSS.escape(had)}"]`) : null;
  if (again) again.focus();
  else if (focusedFor !== turn && !typing) {
    focusedFor = turn;
    acts.querySelector("button")?.focus();
  }
  return true;
}
