// The start page: one tile per registered game (the list comes from /api/games), each with
// its learn page (where the game has one), a guided game to watch and a game to play, both
// in the game's showcase (`Game.showcase`: short, the agents at their best).
import { h } from "./api.js";
import { hasLearnPage } from "./learn.js";

// `actions`: watch(name) and play(name) start the game, friends(name) opens the form of a
// table for several people; title(name) is the game's title.
export function renderStart(el, games, actions) {
  el.replaceChildren(...games.map((g) => {
    const title = actions.title(g.name);
    const agents = [...new Set(g.showcase.strategies)];
    const learn = hasLearnPage(g.name)
      ? h("a", { class: "button", href: `#learn/${g.name}`, id: `start-learn-${g.name}` }, "Learn")
      : null;
    return h("article", { class: "tile card-panel", "data-game": g.name, "aria-labelledby": `tile-${g.name}` },
      h("h2", { id: `tile-${g.name}` }, title),
      h("p", { class: "tile-about" }, about(g.about, title)),
      h("p", { class: "hint" }, `A first game: ${setting(g)}.`),
      h("ul", { class: "tile-agents" }, ...agents.map((a) =>
        h("li", {}, h("b", {}, a), ": ", g.strategy_about[a] || ""))),
      h("div", { class: "tile-buttons" },
        learn,
        h("button", { class: "primary", type: "button", id: `start-watch-${g.name}`,
          onclick: () => actions.watch(g.name) }, "Watch a guided game"),
        h("button", { class: "accent", type: "button", id: `start-play-${g.name}`,
          onclick: () => actions.play(g.name) }, "Play"),
        h("button", { type: "button", id: `start-friends-${g.name}`,
          onclick: () => actions.friends(g.name) }, "Play with friends")));
  }));
}

// The game's description without its name in front ("Kwartet: collect …" under "Kwartet").
function about(text, title) {
  const rest = text.startsWith(`${title}: `) ? text.slice(title.length + 2) : text;
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

// The showcase's parameters that differ from the defaults, in words: "4 players, 5 kinds".
function setting(g) {
  const changed = g.params.filter((p) => p.name in g.showcase.params && g.showcase.params[p.name] !== p.default);
  const seats = g.showcase.strategies.length;
  const words = [`${seats} seats`, ...changed.filter((p) => p.name !== "players")
    .map((p) => `${p.name.replace("_", " ")} ${g.showcase.params[p.name]}`)];
  return words.join(", ");
}
