// A game's parameters as form inputs, and the game string they make: shared by the game
// form (app.js) and the table form (table.js), each with its own box of inputs.
import { h } from "./api.js";

// Fill `box` with one input per parameter of game `g`, each starting from `preset`, then
// the game's showcase, then the default; `changed` runs when one changes.
export function renderParamInputs(box, g, changed, preset = null) {
  box.replaceChildren();
  for (const p of g.params) {
    const start = preset && p.name in preset ? preset[p.name]
      : p.name in g.showcase.params ? g.showcase.params[p.name] : p.default;
    let input;
    if (p.type === "bool") {
      input = h("input", { type: "checkbox", "data-param": p.name });
      input.checked = start === true || start === "true";
    } else if (p.choices) {
      input = h("select", { "data-param": p.name }, ...p.choices.map((c) => h("option", { value: c }, c)));
      input.value = start;
    } else {
      input = h("input", { type: "number", "data-param": p.name, value: start });
      if (p.min !== null) input.min = p.min;
      if (p.max !== null) input.max = p.max;
    }
    input.addEventListener("change", changed);
    box.append(h("label", { title: p.help }, p.name.replace("_", " "), input));
  }
}

// The game string of the inputs in `box` (`kwartet(players=4,kinds=5)`). Each form reads
// its own box: both hold inputs with the same `data-param` names.
export function paramGameString(box, g) {
  const parts = g.params.map((p) => {
    const el = box.querySelector(`[data-param="${p.name}"]`);
    return `${p.name}=${p.type === "bool" ? (el.checked ? "true" : "false") : el.value}`;
  });
  return parts.length ? `${g.name}(${parts.join(",")})` : g.name;
}
