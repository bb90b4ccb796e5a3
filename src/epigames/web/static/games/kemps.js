// Kemps on the table: the six table cards by slot, each seat's hand (face up where this
// perspective may see it, card backs otherwise), the deck, the discard pile, the cards out of
// the game and the Kemps scored. A table card that changed since the last frame drawn is
// marked and moves in from where it came (the swapper's hand, or the deck for a new table),
// so a swap shows where it happened. A person's moves are buttons: "done", or a swap
// written out as "take J♦ from slot 4, put down 10♣", and in the team game the signal and
// the calls. Only the frame JSON is drawn: a signal shows only where this seat saw it.
import { h, seatColor, seatInk } from "../api.js";
import { renderMoves as genericMoves } from "./generic.js";
import { parseCard } from "./klaverjas.js";

// The location matrix (who can hold each card) is half of what this page teaches.
export const showMatrix = true;

const sheet = document.createElement("link");
sheet.rel = "stylesheet";
sheet.href = new URL("./kemps.css", import.meta.url).href;
document.head.append(sheet);

const RED = new Set(["♥", "♦"]);
// The table last drawn, per session: slots that changed since are marked.
let last = { session: null, frame: -1, table: [] };

function face(text, extra = "") {
  const c = parseCard(text);
  if (!c) return h("span", { class: `kp-card ${extra}`.trim() }, text);
  return h("span", { class: `kp-card${RED.has(c.suit) ? " red" : ""} ${extra}`.trim(), "data-card": text, title: text },
    h("span", { class: "rank" }, c.rank), h("span", { class: "suit" }, c.suit));
}

function back() { return h("span", { class: "kp-card back", "aria-hidden": "true" }); }

// The slots whose card changed since the frame drawn last, when this frame is the next one:
// slot -> the card that was there before.
function changedSlots(data, table) {
  const same = last.session === data.session;
  const step = same && data.frame === last.frame + 1;
  const changed = new Map(step ? table.flatMap((c, i) => (last.table[i] && last.table[i] !== c ? [[i, last.table[i]]] : [])) : []);
  last = { session: data.session, frame: data.frame, table };
  return changed;
}

// Cards move on the table: after a swap the new table card comes from the swapper's hand and
// the card taken goes into it (where that hand is face up); a new table comes from the piles.
// Each moving card says where it came from (`data-from`), and is animated from there unless
// the reader asked for reduced motion.
function animateMoves(wrap, changed, swapper, names) {
  if (!changed.size) return;
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const slots = wrap.querySelectorAll(".kp-slot .kp-card");
  const hand = swapper !== null ? wrap.querySelector(`.kp-seat[data-seat="${swapper}"] .kp-hand`) : null;
  const swap = changed.size === 1 && hand !== null;
  const from = swap ? hand : wrap.querySelector(".kp-piles");
  const fly = (card, source, label) => {
    card.dataset.from = label;
    if (still || !source) return;
    const a = source.getBoundingClientRect(), b = card.getBoundingClientRect();
    const dx = a.left + a.width / 2 - (b.left + b.width / 2), dy = a.top + a.height / 2 - (b.top + b.height / 2);
    card.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.85)`, opacity: .5 }, { transform: "none", opacity: 1 }],
      { duration: 450, easing: "ease-out" });
  };
  for (const [i, before] of changed) {
    if (!slots[i]) continue;
    fly(slots[i], from, swap ? `${names[swapper]}'s hand` : "the deck");
    const taken = swap ? hand.querySelector(`.kp-card[data-card="${CSS.escape(before)}"]`) : null;
    if (taken) fly(taken, slots[i], `slot ${i + 1}`);
  }
}

export function renderTable(el, data) {
  const names = data.seat_names;
  const views = data.table.views;
  const any = Object.values(views)[0] || {};
  const table = any.table || [];
  const changed = changedSlots(data, table);
  const sizes = any.hand_sizes || names.map(() => 0);
  const scores = any.scores || names.map(() => 0);

  const seats = h("div", { class: "kp-seats" });
  names.forEach((name, s) => {
    const view = views[String(s)];
    const hand = view && view.hand ? view.hand.map((c) => face(c)) : Array.from({ length: sizes[s] }, back);
    const label = view && view.hand ? `${name}'s hand: ${view.hand.join(" ") || "empty"}` : `${name}: ${sizes[s]} cards, face down`;
    seats.append(h("div", { class: "kp-seat" + (data.current_player === s ? " to-move" : ""), "data-seat": s,
      style: `--c:${seatColor(s)};--ci:${seatInk(s)}` },
      h("div", { class: "name" }, name + (data.human === s ? " (you)" : ""),
        h("span", { class: "kp-score", title: any.window ? "the team's score" : "Kemps scored" },
          any.window ? ` · team ${scores[s]}` : ` · ${scores[s]} Kemps`)),
      h("div", { class: "kp-hand", role: "img", "aria-label": label }, ...hand)));
  });

  const slots = h("div", { class: "kp-table", role: "list", "aria-label": "the table" });
  table.forEach((c, i) => {
      slots.append(h("div", { class: "kp-slot", role: "listitem", "aria-label": `slot ${i + 1}: ${c}` },
      face(c, changed.has(i) ? "kp-changed" : ""), h("span", { class: "kp-slotno" }, String(i + 1))));
  });
  const piles = h("div", { class: "kp-piles" },
    h("span", {}, h("b", {}, String(any.deck ?? 0)), " in the deck"),
    h("span", {}, h("b", {}, String(any.discard ?? 0)), " on the discard pile"),
    h("span", {}, h("b", {}, String((any.out || []).length)), " out of the game"),
    (any.swaps ?? 0) > 0 ? h("span", {}, `${any.swaps} swap${any.swaps === 1 ? "" : "s"} this turn`) : null,
    (any.window || []).length ? h("span", {}, "calls: Kemps! or Stop Kemps! may be called now") : null,
    (any.signalled || []).length ? h("span", { class: "kp-signal" }, `signal seen from ${any.signalled.join(", ")}`) : null);

  const wrap = h("div", { class: "kp" }, seats, h("div", { class: "kp-middle" }, slots, piles));
  if (data.terminal && data.winners) {
    wrap.append(h("div", { class: "gen-over" }, "Game over · winners: " + data.winners.map((w) => names[w]).join(", ")));
  }
  el.replaceChildren(wrap);
  // A swap leaves its player to move (it may swap again or end its turn).
  animateMoves(wrap, changed, (any.swaps ?? 0) > 0 ? data.current_player : null, names);
}

// A move in words: "swap 4 10♣" read against the table (take the slot's card, put the
// hand card there); the team game's signal and calls with the seat they name.
export function moveLabel(action, table, names = []) {
  const swap = /^swap (\d+) (\S+)$/.exec(action);
  if (swap) return `take ${table[Number(swap[1]) - 1] ?? "?"} from slot ${swap[1]}, put down ${swap[2]}`;
  const call = /^(kemps|stop) (\d+)$/.exec(action);
  if (call) {
    const who = names[Number(call[2])] ?? call[2];
    return call[1] === "kemps" ? `call Kemps! for ${who}` : `call Stop Kemps! against ${who}`;
  }
  const words = { done: "done: end my turn", pass: "pass: no call", signal: "signal to my partner" };
  return words[action] ?? action;
}

export function renderMoves(el, data, ctx) {
  const shown = genericMoves(el, data, ctx);
  const view = data.table.views[String(data.human)] || Object.values(data.table.views)[0] || {};
  for (const b of el.querySelectorAll("button[data-action]")) {
    b.textContent = moveLabel(b.dataset.action, view.table || [], data.seat_names);
  }
  return shown;
}
