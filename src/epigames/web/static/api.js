// Thin fetch wrapper: JSON in, JSON out; errors carry the server's `detail` sentence and
// the whole answer (`data`: e.g. a budget's 503 says how far the game was played).
export class ApiError extends Error {
  constructor(status, detail, data = {}) { super(detail); this.status = status; this.data = data; }
}

export async function api(path, { method = "GET", body, params } = {}) {
  let url = path;
  if (params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, v);
    const s = q.toString();
    if (s) url += "?" + s;
  }
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const data = await res.json().catch(() => ({ detail: res.statusText }));
  if (!res.ok) throw new ApiError(res.status, data.detail || res.statusText, data);
  return data;
}

export const SEAT_COLORS = ["#d62839", "#1f5fbf", "#2a9d4b", "#8e44ad", "#e67e22", "#16a0a6"];

export function seatColor(i) { return SEAT_COLORS[((i % 6) + 6) % 6]; }

// The seat colours darkened for text: at least 4.5:1 on white and the light greys (WCAG AA).
export const SEAT_INKS = ["#b3182b", "#1f5fbf", "#1b6e34", "#7b3697", "#a04f0b", "#0b6e72"];

export function seatInk(i) { return SEAT_INKS[((i % 6) + 6) % 6]; }

const SVG_NS = "http://www.w3.org/2000/svg";
// Create an SVG element with attributes (children appended by the caller).
export function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    // An absent value means no attribute (setAttribute would write the text "null").
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "style") el.setAttribute("style", v);
    else el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

export function pct(p) {
  if (p === null || p === undefined) return "–";
  if (p === 0) return "0";
  if (p === 1) return "1";
  return (Math.round(p * 1000) / 10).toFixed(p < 0.1 ? 1 : 0) + "%";
}
