// The guided game: under the table, what the last moves did and what they told whom, in
// plain words. The words come from the server (`explain` on each log entry, built from the
// events' typed facts and the thoughts' data for the perspective shown), so this only lays
// them out.
import { h } from "./api.js";

// Most moves explained at once (jumping far ahead, or a played game opening at the person's turn).
const MAX_MOVES = 6;

// The entries to explain: those from log index `from` on (the frame shown before), but at
// most the last MAX_MOVES moves; without `from`, the last move (before any move: the deal).
export function lastStep(log, from = null) {
  const moves = [];
  log.forEach((e, i) => { if (e && e.type === "decision") moves.push(i); });
  let start = moves.length ? moves[moves.length - 1] : 0;
  if (from !== null && from < start) {
    const since = moves.filter((i) => i >= from);
    start = since.length > MAX_MOVES ? since[since.length - MAX_MOVES] : from;
  }
  return log.slice(start).filter((e) => e && e.explain);
}

export function renderGuide(el, log, on, from = null) {
  el.classList.toggle("hidden", !on);
  if (!on) { el.replaceChildren(); return; }
  const step = lastStep(log, from);
  el.replaceChildren(h("h2", {}, "What just happened"),
    step.length ? h("ul", {}, ...step.map((e) => h("li", { class: e.type === "decision" ? "why" : e.public ? "public" : "private" },
      e.explain)))
      : h("p", { class: "hint" }, "Step forward (▶ or the right arrow key) to see the first move explained."));
}
