// The Kripke panel: worlds as nodes (labelled with what is true there), each agent's
// relation as edges in its own colour, the true world outlined, probabilities per world;
// and the knowledge matrix (subjects × possible holders, coloured by probability).
import { svg, h, seatColor, pct } from "./api.js";

const W = 760, H = 470;

function layout(n) {
  if (n === 1) return [{ x: W / 2, y: H / 2 - 10 }];
  if (n <= 10) {
    const r = Math.min(165, 105 + n * 8), pts = [];
    for (let i = 0; i < n; i++) {
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / n;
      pts.push({ x: W / 2 + r * 1.45 * Math.cos(a), y: H / 2 - 22 + r * Math.sin(a) });
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

// Draw a picture (the API's picture JSON); `falseWorlds` (names) are tinted red.
export function renderKripke(el, pic, seatNames, falseWorlds = null) {
  const n = pic.worlds.length;
  const pts = layout(n);
  const small = n > 10;
  const R = small ? 18 : 34;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Kripke model of ${pic.subject}` });
  const agents = pic.agents;
  const A = agents.length;
  // Edges first, so nodes sit on top. Parallel edges of several agents are offset sideways.
  agents.forEach((agent, k) => {
    const color = agentColor(agent.name, seatNames);
    const off = (k - (A - 1) / 2) * 4.5;
    const g = svg("g", { class: "relation", "data-agent": agent.name });
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
      {
        for (const [a, b] of pairs) {
          const p = pts[a], q = pts[b];
          const dx = q.x - p.x, dy = q.y - p.y, len = Math.hypot(dx, dy) || 1;
          const ox = (-dy / len) * off, oy = (dx / len) * off;
          g.append(svg("line", { x1: p.x + ox, y1: p.y + oy, x2: q.x + ox, y2: q.y + oy,
            stroke: color, "stroke-width": 3, "stroke-linecap": "round", opacity: 0.85, class: "edge" }));
        }
      }
    }
    root.append(g);
  });
  pic.worlds.forEach((w, i) => {
    const p = pts[i];
    const isFalse = falseWorlds && falseWorlds.includes(w.name);
    const g = svg("g", { class: "world" + (w.true ? " true-world" : "") + (isFalse ? " false-world" : ""),
      "data-world": w.name });
    g.append(svg("title", {}, `${w.name}\n${w.atoms.join("\n")}`));
    if (w.true) g.append(svg("circle", { cx: p.x, cy: p.y, r: R + 7, fill: "none", stroke: "#1d2530", "stroke-width": 4 }));
    g.append(svg("circle", { class: "node", cx: p.x, cy: p.y, r: R, fill: isFalse ? "#ffe1e1" : "#ffffff",
      stroke: isFalse ? "#d62839" : "#5b6675", "stroke-width": 2 }));
    const label = w.name.length > 9 ? w.name.slice(0, 8) + "…" : w.name;
    g.append(svg("text", { x: p.x, y: p.y + (small ? 4 : 5), "text-anchor": "middle",
      "font-size": small ? 10 : 14, "font-weight": 700, fill: "#1d2530" }, label));
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
    root.append(g);
  });
  el.replaceChildren(root);
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
  el.replaceChildren(
    h("div", { class: "hint" }, `${pic.world_count} world${pic.world_count === 1 ? "" : "s"} · ${who}${trunc}. ` +
      "Bars: each agent’s probability of the world. Every world is also linked to itself."),
    ...rows);
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
      if (p > 0) td.style.background = `color-mix(in srgb, ${color} ${Math.round(12 + 78 * p)}%, white)`;
      if (p > 0.55) td.style.color = "#fff";
      if (row.true_world === c) td.classList.add("truth");
      tr.append(td);
    }
    table.append(tr);
  }
  el.replaceChildren(table);
}
