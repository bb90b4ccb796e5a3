// The guided game: under the table, what the last move did and what it told whom, in plain
// words. The words come from the server (`explain` on each log entry, built from the events'
// typed facts and the thoughts' data for the perspective shown), so this only lays them out.
import { h } from "./api.js";

// The entries of the last step: from the last decision on (before any move: the deal).
export function lastStep(log) {
  let from = 0;
  log.forEach((e, i) => { if (e && e.type === "decision") from = i; });
  return log.slice(from).filter((e) => e && e.explain);
}

export function renderGuide(el, log, on) {
  el.classList.toggle("hidden", !on);
  if (!on) { el.replaceChildren(); return; }
  const step = lastStep(log);
  el.replaceChildren(h("h2", {}, "What just happened"),
    step.length ? h("ul", {}, ...step.map((e) => h("li", { class: e.type === "decision" ? "why" : e.public ? "public" : "private" },
      e.explain)))
      : h("p", { class: "hint" }, "Step forward (▶ or the right arrow key) to see the first move explained."));
}
