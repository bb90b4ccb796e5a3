// The Kripke panel: worlds as nodes (labelled with what is true there), each agent's
// relation as edges in its own colour, the true world outlined, probabilities per world;
// and the knowledge matrix (subjects × possible holders, coloured by probability).
import { svg, h, seatColor, pct } from "./api.js";

// Narrow enough to be read beside the table on a laptop (the panel is about 450 px there).
const W = 580, H = 470;

function layout(n) {
  if (n === 1) return [{ x: W / 2, y: H / 2 - 10 }];
  if (n <= 10) {
    const r = Math.min(165, 105 + n * 8), pts = [];
    for (let i = 0; i < n; i++) {
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / n;
      pts.push({ x: W / 2 + r * 1.3 * Math.cos(a), y: H / 2 - 22 + r * Math.sin(a) });
    }
    return pts;
  }
  const cols = Math.ceil(Math.sqrt(n * 1.8)), rows = Math.ceil(n / cols), pts = [];
  for (let i = 0; i < n; i++) {
    pts.push({ x: 60 + ((i % cols) + 0.5) * ((W - 120) / cols), y: 40 + (Math.floor(i / cols) + 0.5) * ((H - 70) / rows) });
  }
  return pts;
}

export function agentColor(name, seatNames) {
  const i = seatNames.indexOf(name);
  return i >= 0 ? seatColor(i) : "#555";
}

// What the reader chose in the picture: the world it clicked to look from, and the agent
// whose possible worlds are highlighted. Kept across frames while they exist, but a world
// only for the subject and perspective it was clicked in: a world picked as a spectator
// (or the true world, looked from by default) must not stay marked in a seat's picture.
const choice = { view: null, world: null, agent: null };

// Each agent's lines also differ by dash pattern and carry its initial: colour is not the
// only way to tell the agents apart.
const DASHES = ["", "9 5", "2 5", "12 4 2 4", "6 3 6 9", "1 3"];

function initial(name) { return name.slice(0, 1); }

// Above this many worlds a picture is drawn grouped: loose nodes stop being readable.
const GROUP_ABOVE = 12;

// The picture with its worlds grouped: first by the blocks of the viewer's relation when it
// has few (worlds it cannot tell apart stay together, and apart from those it can), then,
// inside a block still too big or for a viewer with many blocks, by the first symbol of the
// world's name (for the cup: the highest die). A group is one node with its count and each agent's summed
// probability; an agent's block joins every group it meets. `members` keeps the worlds.
export function groupPicture(pic) {
  const n = pic.worlds.length;
  if (n <= GROUP_ABOVE) return null;
  const viewer = pic.perspective === null ? null : pic.agents.find((a) => a.name === pic.viewer_name) || null;
  const blockOf = new Array(n).fill(0);
  if (viewer) viewer.blocks.forEach((b, k) => b.forEach((i) => { blockOf[i] = k; }));
  const size = new Map();
  blockOf.forEach((k) => size.set(k, (size.get(k) || 0) + 1));
  // A viewer that tells many worlds apart (the cup's holder) is grouped by symbol alone.
  const coarse = viewer && viewer.blocks.length <= 6;
  const keyOf = (i) => !coarse ? `|${pic.worlds[i].name[0]}`
    : size.get(blockOf[i]) > GROUP_ABOVE ? `${blockOf[i]}|${pic.worlds[i].name[0]}` : `${blockOf[i]}|`;
  const index = new Map(), groups = [];
  pic.worlds.forEach((w, i) => {
    const key = keyOf(i);
    if (!index.has(key)) {
      index.set(key, groups.length);
      groups.push({ key, members: [], first: w.name[0] });
    }
    groups[index.get(key)].members.push(i);
  });
  const groupOf = new Array(n);
  groups.forEach((g, k) => g.members.forEach((i) => { groupOf[i] = k; }));
  const worlds = groups.map((g) => {
    const ws = g.members.map((i) => pic.worlds[i]);
    const probabilities = {};
    for (const w of ws) for (const [a, p] of Object.entries(w.probabilities)) probabilities[a] = (probabilities[a] || 0) + p;
    const sameFirst = ws.every((w) => w.name[0] === g.first);
    const name = ws.length === 1 ? ws[0].name : sameFirst ? `${g.first}··` : `${ws[0].name}…`;
    return { name, count: ws.length, members: ws.map((w) => w.name), true: ws.some((w) => w.true),
      considered: ws.some((w) => w.considered),
      atoms: [`${ws.length} worlds: ${ws.map((w) => w.name).join(" ")}`], probabilities };
  });
  // An agent's blocks over groups: groups that one of its blocks meets are joined (union-find).
  const agents = pic.agents.map((a) => {
    const parent = groups.map((_, k) => k);
    const find = (k) => (parent[k] === k ? k : (parent[k] = find(parent[k])));
    const inside = new Set();  // groups inside which this agent confuses some worlds
    for (const b of a.blocks) {
      const gs = [...new Set(b.map((i) => groupOf[i]))];
      for (const g of gs) if (b.filter((i) => groupOf[i] === g).length > 1) inside.add(g);
      for (const g of gs.slice(1)) parent[find(g)] = find(gs[0]);
    }
    const blocks = new Map();
    groups.forEach((_, k) => { const r = find(k); if (!blocks.has(r)) blocks.set(r, []); blocks.get(r).push(k); });
    return { name: a.name, blocks: [...blocks.values()], confusedWithin: [...inside] };
  });
  return { ...pic, worlds, agents, grouped: true, ungrouped: pic };
}

// Where the last picture drew each world, per subject: the next frame's picture of the same
// subject keeps the surviving worlds where they were, so the eye follows the model shrinking.
const placed = { key: null, pos: new Map(), small: false };

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// The worlds and edges of the picture drawn before that the new one lacks fade out over it
// (or vanish at once with reduced motion): a layer of the old elements, removed at the end.
function fadeOut(root, old, worlds, edges) {
  if (!old || reducedMotion()) return;
  const gone = [...old.querySelectorAll(".world")].filter((g) => !worlds.has(g.dataset.world));
  const cut = [...old.querySelectorAll("[data-edge]")].filter((e) => !edges.has(e.dataset.edge));
  if (!gone.length && !cut.length) return;
  const layer = svg("g", { class: "leaving", "aria-hidden": "true" });
  for (const e of [...cut, ...gone]) {
    // Out of the selectors that mean "a world of this picture".
    e.classList.remove("world", "edge", "edge-label");
    e.removeAttribute("data-world");
    e.removeAttribute("data-edge");
    layer.append(e);
  }
  root.insertBefore(layer, root.querySelector(".world"));
  const remove = () => layer.remove();
  layer.addEventListener("transitionend", remove, { once: true });
  setTimeout(remove, 1500);  // no transitionend when the panel is hidden meanwhile
  layer.getBoundingClientRect();  // the start state is drawn before the fade begins
  requestAnimationFrame(() => layer.classList.add("gone"));
}

// A roll of dice, as a world's name: "653".
const DICE = /^[1-6]{2,3}$/;
// Where the pips of a face lie, on a 3 × 3 grid (0..8, row by row).
const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

function drawDice(name, p) {
  const g = svg("g", { class: "thing dice", "aria-hidden": "true" });
  const size = 17, gap = 3, n = name.length;
  const x0 = p.x - (n * size + (n - 1) * gap) / 2;
  [...name].forEach((face, k) => {
    const x = x0 + k * (size + gap), y = p.y - size / 2;
    g.append(svg("rect", { x, y, width: size, height: size, rx: 3, fill: "#fff", stroke: "#1d2530", "stroke-width": 1.2 }));
    for (const i of PIPS[face]) {
      g.append(svg("circle", { cx: x + 4 + (i % 3) * 4.5, cy: y + 4 + Math.floor(i / 3) * 4.5, r: 1.5, fill: "#1d2530" }));
    }
  });
  return g;
}

// A small card with the subject's name, above its holder's name in the world's node.
function drawCard(subject, p) {
  const g = svg("g", { class: "thing card", "aria-hidden": "true" });
  const red = /[♥♦]/.test(subject);
  g.append(svg("rect", { x: p.x - 15, y: p.y - 27, width: 30, height: 30, rx: 4, fill: "#fff", stroke: "#1d2530", "stroke-width": 1.2 }));
  g.append(svg("text", { x: p.x, y: p.y - 7, "text-anchor": "middle", "font-size": subject.length > 4 ? 8 : 11, "font-weight": 700,
    fill: red ? "#b3182b" : "#1d2530" }, subject));
  return g;
}

// Draw a picture (the API's picture JSON); `falseWorlds` (names) are tinted red.
export function renderKripke(el, pic0, seatNames, falseWorlds0 = null) {
  const view = `${pic0.subject}|${pic0.perspective}`;
  if (choice.view !== view) Object.assign(choice, { view, world: null });
  const pic = groupPicture({ ...pic0, viewer_name: pic0.perspective === null ? null : seatNames[pic0.perspective] }) || pic0;
  // A group is tinted when the formula is false in any of its worlds.
  const falseWorlds = falseWorlds0 && pic.grouped
    ? pic.worlds.filter((w) => w.members.some((m) => falseWorlds0.includes(m))).map((w) => w.name) : falseWorlds0;
  const n = pic.worlds.length;
  const key = `${pic0.subject}|${pic.grouped ? "grouped" : ""}`;
  const keep = placed.key === key && pic.worlds.every((w) => placed.pos.has(w.name));
  const pts = keep ? pic.worlds.map((w) => placed.pos.get(w.name)) : layout(n);
  const small = keep ? placed.small : n > 10;
  const old = keep ? el.querySelector("svg") : null;
  placed.key = key;
  placed.pos = new Map(pic.worlds.map((w, i) => [w.name, pts[i]]));
  placed.small = small;
  const edgeKeys = new Set();
  const R = small ? 18 : 34;
  const agents = pic.agents;
  const A = agents.length;
  const LEGEND = 44;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H + LEGEND}`, role: "group",
    "aria-label": `Kripke model of ${pic.subject}` });
  // Edges first, so nodes sit on top. Parallel edges of several agents are offset sideways.
  agents.forEach((agent, k) => {
    const color = agentColor(agent.name, seatNames);
    const off = (k - (A - 1) / 2) * 4.5;
    const g = svg("g", { class: "relation", "data-agent": agent.name });
    const labels = svg("g", { class: "edge-labels" });
    for (const block of agent.blocks) {
      // Small blocks: every pair. Big ones: a chain through the block (S5 relations are
      // transitive, so the chain says the same without a solid blob of lines).
      const pairs = [];
      if (block.length <= 6) {
        for (let i = 0; i < block.length; i++) for (let j = i + 1; j < block.length; j++) pairs.push([block[i], block[j]]);
      } else {
        const sorted = [...block].sort((a, b) => a - b);
        for (let i = 0; i + 1 < sorted.length; i++) pairs.push([sorted[i], sorted[i + 1]]);
      }
      for (const [a, b] of pairs) {
        const p = pts[a], q = pts[b];
        const edge = `${agent.name}|${[pic.worlds[a].name, pic.worlds[b].name].sort().join("|")}`;
        edgeKeys.add(edge);
        const dx = q.x - p.x, dy = q.y - p.y, len = Math.hypot(dx, dy) || 1;
        const ox = (-dy / len) * off, oy = (dx / len) * off;
        g.append(svg("line", { x1: p.x + ox, y1: p.y + oy, x2: q.x + ox, y2: q.y + oy,
          stroke: color, "stroke-width": 3, "stroke-linecap": "round", opacity: 0.85, class: "edge",
          "stroke-dasharray": DASHES[k % DASHES.length], "data-edge": edge }));
        // The label sits on the edge, spread along it by agent so parallel labels do not overlap.
        const t = 0.5 + (k - (A - 1) / 2) * (small ? 0.12 : 0.09);
        const lx = p.x + dx * t + ox * 2.5, ly = p.y + dy * t + oy * 2.5;
        const lab = svg("g", { class: "edge-label", "data-agent": agent.name, "data-edge": edge });
        lab.append(svg("title", {}, `${agent.name} cannot tell these two worlds apart`));
        lab.append(svg("circle", { cx: lx, cy: ly, r: small ? 6.5 : 8, fill: "#fff", stroke: color, "stroke-width": 1.5 }));
        lab.append(svg("text", { x: lx, y: ly + (small ? 3 : 3.5), "text-anchor": "middle", "font-size": small ? 8.5 : 10,
          "font-weight": 700, fill: "#1d2530" }, initial(agent.name)));
        labels.append(lab);
      }
    }
    g.append(labels);
    root.append(g);
  });
  const worldGroups = [];
  pic.worlds.forEach((w, i) => {
    const p = pts[i];
    const isFalse = falseWorlds && falseWorlds.includes(w.name);
    const g = svg("g", { class: "world" + (w.true ? " true-world" : "") + (isFalse ? " false-world" : ""),
      "data-world": w.name });
    g.append(svg("title", {}, `${w.name}\n${w.atoms.join("\n")}`));
    if (w.true) g.append(svg("circle", { cx: p.x, cy: p.y, r: R + 7, fill: "none", stroke: "#1d2530", "stroke-width": 4 }));
    g.append(svg("circle", { class: "sel-ring", cx: p.x, cy: p.y, r: R + 4, fill: "none", stroke: "#c2410c",
      "stroke-width": 3, "stroke-dasharray": "5 3" }));
    g.append(svg("circle", { class: "node", cx: p.x, cy: p.y, r: R, fill: isFalse ? "#ffe1e1" : "#ffffff",
      stroke: isFalse ? "#d62839" : "#5b6675", "stroke-width": 2 }));
    const label = w.name.length > 9 ? w.name.slice(0, 8) + "…" : w.name;
    const counted = pic.grouped && w.count > 1;
    // The world drawn as the thing itself where there is room: a roll as its dice, a card
    // at its holder as a small card above the holder's name.
    const thing = small || counted ? null : DICE.test(w.name) ? "dice" : "card";
    if (thing === "dice") g.append(drawDice(w.name, p));
    else {
      if (thing === "card") g.append(drawCard(pic.subject, p));
      g.append(svg("text", { x: p.x, y: p.y + (small ? 4 : counted ? -2 : thing ? 17 : 5), "text-anchor": "middle",
        "font-size": small ? 10 : thing ? 12 : 14, "font-weight": 700, fill: "#1d2530" }, label));
    }
    if (counted) {
      g.dataset.count = w.count;
      g.append(svg("text", { class: "count", x: p.x, y: p.y + 14, "text-anchor": "middle", "font-size": 11,
        fill: "#1d2530" }, `${w.count} worlds`));
      // Who cannot tell (some of) this group's worlds apart: initials on the rim.
      const confused = pic.agents.filter((a) => a.confusedWithin.includes(i)).map((a) => initial(a.name));
      if (confused.length) g.append(svg("text", { class: "confused", x: p.x + R * 0.75, y: p.y - R * 0.75,
        "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#5b6675" }, confused.join("")));
    }
    if (!small) {
      // Probabilities: one bar per agent under the node.
      const probs = Object.entries(w.probabilities);
      probs.forEach(([agent, p0], k) => {
        const y = p.y + R + 12 + k * 12;
        const color = agentColor(agent, seatNames);
        g.append(svg("text", { x: p.x - 40, y: y + 1, "font-size": 10, "text-anchor": "end", fill: color,
          "font-weight": 700 }, agent.slice(0, 1)));
        g.append(svg("rect", { x: p.x - 36, y: y - 7, width: 44, height: 8, fill: "#eef1f4", rx: 2 }));
        g.append(svg("rect", { x: p.x - 36, y: y - 7, width: 44 * p0, height: 8, fill: color, rx: 2 }));
        g.append(svg("text", { x: p.x + 12, y: y + 1, "font-size": 11, fill: "#1d2530" }, pct(p0)));
      });
      if (w.true) g.append(svg("text", { x: p.x, y: p.y - R - 12, "text-anchor": "middle", "font-size": 11,
        "font-weight": 700, fill: "#1d2530" }, "actual"));
    }
    // Clicking a world looks from it: the highlighted agent's possible worlds follow.
    g.addEventListener("click", () => { choice.world = w.name; highlight(root, pic); });
    worldGroups.push(g);
    root.append(g);
  });
  // The legend, in the picture: one entry per agent (line, dash and initial as on the edges).
  // Clicking one (or Enter/Space on it) shows the worlds that agent considers possible.
  const legend = svg("g", { class: "kripke-legend", transform: `translate(0,${H + 4})` });
  const step = Math.min(150, (W - 20) / Math.max(1, A));
  agents.forEach((agent, k) => {
    const color = agentColor(agent.name, seatNames);
    const x = 10 + k * step;
    const item = svg("g", { class: "legend-agent", "data-agent": agent.name, role: "button", tabindex: 0,
      "aria-pressed": "false", "aria-label": `show the worlds ${agent.name} considers possible` });
    item.append(svg("rect", { class: "legend-box", x, y: 2, width: step - 8, height: 34, rx: 8, fill: "#fff",
      stroke: "#d5dbe3", "stroke-width": 1.5 }));
    item.append(svg("line", { x1: x + 8, y1: 19, x2: x + 40, y2: 19, stroke: color, "stroke-width": 3,
      "stroke-dasharray": DASHES[k % DASHES.length] }));
    item.append(svg("circle", { cx: x + 24, cy: 19, r: 8, fill: "#fff", stroke: color, "stroke-width": 1.5 }));
    item.append(svg("text", { x: x + 24, y: 22.5, "text-anchor": "middle", "font-size": 10, "font-weight": 700,
      fill: "#1d2530" }, initial(agent.name)));
    item.append(svg("text", { class: "legend-name", x: x + 48, y: 24, "font-size": 14, "font-weight": 700, fill: "#1d2530" }, agent.name));
    const pick = () => { choice.agent = choice.agent === agent.name ? null : agent.name; highlight(root, pic); };
    item.addEventListener("click", pick);
    item.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); }
    });
    legend.append(item);
  });
  root.append(legend);
  fadeOut(root, old, new Set(pic.worlds.map((w) => w.name)), edgeKeys);
  // As in Hintikka's World: a chip per agent asks what it considers possible, and lights
  // up the worlds it cannot tell from the one looked from (the same choice as the legend).
  const chips = h("div", { class: "agent-chips", role: "group", "aria-label": "what each agent considers possible" },
    ...agents.map((agent) => h("button", { type: "button", class: "agent-chip", "data-agent": agent.name,
      "aria-pressed": "false", style: `--c:${agentColor(agent.name, seatNames)}`,
      onclick: () => { choice.agent = choice.agent === agent.name ? null : agent.name; highlight(root, pic); } },
    `What does ${agent.name} consider possible?`)));
  el.replaceChildren(chips, root);
  highlight(root, pic);
}

// Mark the chosen agent's possible worlds from the world looked from (its block of the
// relation), and dim the other worlds and the other agents' lines. The world looked from is
// the clicked one, else the true one when the perspective knows it, else the first world it
// considers possible; a default is worked out anew for each picture, never kept.
function highlight(root, pic) {
  const names = pic.worlds.map((w) => w.name);
  if (!names.includes(choice.world)) choice.world = null;
  const agent = pic.agents.find((a) => a.name === choice.agent) || null;
  const t = pic.worlds.findIndex((w) => w.true);
  const from = choice.world !== null ? names.indexOf(choice.world)
    : t >= 0 ? t : Math.max(0, pic.worlds.findIndex((w) => w.considered));
  const block = agent ? (agent.blocks.find((b) => b.includes(from)) || [from]) : null;
  root.classList.toggle("highlighting", !!agent);
  root.dataset.agent = agent ? agent.name : "";
  // The world looked from is ringed when clicked or true, or when an agent's worlds from it
  // are shown: a default picked only to start from is not marked as if it were the truth.
  const ringed = choice.world !== null || t >= 0 || !!agent;
  root.querySelectorAll(".world").forEach((g, i) => {
    g.classList.toggle("selected", ringed && i === from);
    g.classList.toggle("possible", !!block && block.includes(i));
  });
  root.querySelectorAll(".relation").forEach((g) => g.classList.toggle("chosen", !!agent && g.dataset.agent === agent.name));
  root.querySelectorAll(".legend-agent").forEach((g) => {
    const on = !!agent && g.dataset.agent === agent.name;
    g.classList.toggle("active", on);
    g.setAttribute("aria-pressed", on ? "true" : "false");
  });
  const chips = root.parentElement ? root.parentElement.querySelectorAll(".agent-chip") : [];
  chips.forEach((b) => b.setAttribute("aria-pressed", agent && b.dataset.agent === agent.name ? "true" : "false"));
}

export function renderLegend(el, pic, seatNames) {
  const rows = pic.agents.map((a) => {
    const groups = a.blocks.filter((b) => b.length > 1).length;
    const knows = a.blocks.every((b) => b.length === 1);
    return h("div", { class: "row" },
      h("span", { class: "swatch", style: `background:${agentColor(a.name, seatNames)}` }),
      h("b", {}, a.name), h("span", { class: "hint" }, knows ? "tells every world apart" :
        `cannot tell apart the worlds its lines join${groups > 1 ? ` (${groups} groups)` : ""}`));
  });
  const who = pic.perspective === null ? "the spectator (true world known)" : `${seatNames[pic.perspective]}’s view`;
  const trunc = pic.truncated ? ` · showing ${pic.worlds.length} of ${pic.world_count} worlds` : "";
  const grouped = groupPicture({ ...pic, viewer_name: pic.perspective === null ? null : seatNames[pic.perspective] });
  const groupText = grouped ? ` · drawn as ${grouped.worlds.length} groups: worlds ${pic.perspective === null ? "" :
    "this seat cannot tell apart together, then "}by ${pic.subject === "cup" ? "the highest die" : "first symbol"}` +
    " (initials on a group: agents that cannot tell its worlds apart)" : "";
  el.replaceChildren(
    h("div", { class: "hint" }, `${pic.world_count} world${pic.world_count === 1 ? "" : "s"} · ${who}${trunc}${groupText}. ` +
      "Bars: each agent’s probability of the world. Every world is also linked to itself. " +
      "Press “What does … consider possible?” above the picture (or an agent under it) to light up the worlds that agent considers possible; click a world to look from it."),
    ...rows);
}

// Relative luminance (WCAG) of `hex` mixed with white, `share` of it.
function mixedLuminance(hex, share) {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = rgb.map((c) => share * c + (1 - share)).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// Text that keeps WCAG AA's 4.5:1 on a cell: white or the page's dark ink (L 0.018) where
// one clears 4.6 (a margin for the browser's rounding of the mixed colour), else the
// better of white and black. Mid-tones, such as a seat's red at about 80%, need black:
// neither white nor the dark ink reaches 4.5 there, and the better of white and black
// never falls below 4.58.
function inkOn(hex, share) {
  const l = mixedLuminance(hex, share);
  const white = 1.05 / (l + 0.05);
  if (white >= 4.6) return "#fff";
  if ((l + 0.05) / 0.068 >= 4.6) return "#1d2530";
  return white >= (l + 0.05) / 0.05 ? "#fff" : "#000";
}

export function renderMatrix(el, m, agent, seatNames) {
  if (!m.rows.length) { el.replaceChildren(h("div", { class: "hint" }, "No subjects left.")); return; }
  const table = h("table", { class: "knowledge" });
  const head = h("tr", {}, h("th", {}, agent ? `${agent}: P(holder)` : ""));
  for (const c of m.columns) head.append(h("th", {}, c));
  table.append(head);
  const color = agentColor(agent, seatNames);
  for (const row of m.rows) {
    const tr = h("tr", {}, h("td", { class: "sub" }, row.subject));
    const probs = row.probabilities[agent] || {};
    for (const c of m.columns) {
      const p = probs[c] || 0;
      const td = h("td", { title: `${agent}: P(${c} holds ${row.subject}) = ${pct(p)}` }, p > 0 ? pct(p) : "");
      if (p > 0) {
        // The ink is chosen for the share the cell is painted with, rounded as in its CSS.
        const share = Math.round(100 * (0.12 + 0.78 * p)) / 100;
        td.style.background = `color-mix(in srgb, ${color} ${Math.round(100 * share)}%, white)`;
        td.style.color = inkOn(color, share);
      }
      if (row.true_world === c) td.classList.add("truth");
      tr.append(td);
    }
    table.append(tr);
  }
  el.replaceChildren(table);
}
