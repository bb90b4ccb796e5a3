// Tables: one game, several people in their own browsers. The form that opens a table (a
// person or an agent per seat), the invite links, and the panel beside a seat: who plays
// which seat, the connection, the turn clock, the coach, leaving the seat to an agent.
// The seat itself is the game page (app.js) with the token's URLs: the same renderers, log
// and Kripke panel. A link is `#table/{tid}/{token}`: the token stays in the fragment, so
// it never reaches the server's access log through a page load.
import { api, h, seatColor, seatInk } from "./api.js";
import { paramGameString, renderParamInputs } from "./params.js";

const $ = (id) => document.getElementById(id);
let ctx = null;

// Where this browser stores the invite links of the tables it opened (the creator's
// reload, or their other tab, shows them again). Only the creator's browser has them.
const KEPT = "epigames.tables";

function kept() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "{}"); } catch { return {}; }
}

function keep(tid, data) {
  const all = kept();
  all[tid] = data;
  // The newest 20 tables: an old one's links are in the friends' browsers anyway.
  const ids = Object.keys(all).slice(-20);
  try { localStorage.setItem(KEPT, JSON.stringify(Object.fromEntries(ids.map((k) => [k, all[k]])))); } catch { /* private mode */ }
}

export function linkFor(tid, token) { return `${location.origin}${location.pathname}#table/${tid}/${token}`; }

// --- the form ------------------------------------------------------------------------

const YOU = "you";
const FRIEND = "friend";
const ABOUT = {
  [YOU]: "You sit here: your seat opens as soon as the table is made.",
  [FRIEND]: "A friend: they get an invite link and play from their own browser.",
};

function currentGame() { return ctx.games.find((g) => g.name === $("tb-game").value); }

function gameString() { return paramGameString($("tb-params"), currentGame()); }

function renderForm(game, preset) {
  const g = ctx.games.find((x) => x.name === game) || ctx.games[0];
  $("tb-game").value = g.name;
  renderParamInputs($("tb-params"), g, refreshSeats, preset);
  refreshSeats();
}

let seatRequest = 0;

// The seats of the setting (their number and names depend on the parameters).
async function refreshSeats() {
  const g = currentGame();
  const mine = ++seatRequest;
  const box = $("tb-seats");
  box.dataset.ready = "0";
  let names;
  try {
    names = (await api("/api/game", { params: { spec: gameString() } })).seat_names;
  } catch (e) {
    if (mine === seatRequest) { $("tb-error").textContent = e.message; box.dataset.ready = "1"; }
    return;
  }
  if (mine !== seatRequest) return;
  $("tb-error").textContent = "";
  // A choice already made stays: a parameter's change event can come late (on blur), after
  // the seats were chosen.
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  names.forEach((name, i) => {
    const sel = h("select", { "data-seat": i, "aria-label": `${name}: who plays`, "aria-describedby": `tb-about-${i}` },
      h("option", { value: YOU, title: ABOUT[YOU] }, "you"),
      h("option", { value: FRIEND, title: ABOUT[FRIEND] }, "a friend (invite link)"),
      ...g.strategies.map((s) => h("option", { value: s, title: g.strategy_about[s] }, `agent: ${s}`)));
    const known = old[i] === YOU || old[i] === FRIEND || g.strategies.includes(old[i]);
    sel.value = known ? old[i] : FRIEND;
    if (i === 0 && !old.slice(0, names.length).includes(YOU)) sel.value = YOU;
    const about = h("p", { class: "seat-about", id: `tb-about-${i}` });
    const describe = () => { about.textContent = ABOUT[sel.value] || g.strategy_about[sel.value] || ""; };
    sel.addEventListener("change", () => {
      // One "you": choosing it for a seat makes the one before a friend's.
      if (sel.value === YOU) {
        box.querySelectorAll("select").forEach((o) => {
          if (o !== sel && o.value === YOU) { o.value = FRIEND; o.dispatchEvent(new Event("change")); }
        });
      }
      describe();
    });
    describe();
    box.append(h("div", { class: "seat-row" },
      h("span", { class: "dot", style: `background:${seatColor(i)}` }),
      h("span", { class: "seat-name" }, name), sel), about);
  });
  box.dataset.ready = "1";
}

async function createTable(ev) {
  ev.preventDefault();
  const sels = [...$("tb-seats").querySelectorAll("select")];
  const choices = sels.map((s) => s.value);
  if (!choices.includes(YOU)) { $("tb-error").textContent = "Choose “you” for the seat you will play."; return; }
  const body = { game: gameString(), seats: choices.map((c) => (c === YOU || c === FRIEND ? "person" : c)) };
  const clock = $("tb-clock").value;
  if (clock) body.clock = Number(clock);
  $("tb-create").disabled = true;
  try {
    const t = await api("/api/tables", { method: "POST", body });
    const you = choices.indexOf(YOU);
    const mine = t.tokens.find((x) => x.seat === you);
    keep(t.table, { game: t.game, you, tokens: t.tokens, watch: t.watch || null });
    location.hash = `#table/${t.table}/${mine.token}`;
  } catch (e) {
    $("tb-error").textContent = e.message;
  } finally { $("tb-create").disabled = false; }
}

// --- the seat: its connection ------------------------------------------------------------

// The table's status arrives over the WebSocket; where that cannot connect or drops, over
// the long poll while the WebSocket is tried again (1, 2, 4… up to 10 s apart).
class Link {
  constructor(tid, token, onStatus, onState) {
    Object.assign(this, { tid, token, onStatus, onState });
    this.version = null; this.ws = null; this.retry = 0; this.closed = false; this.polling = false; this.timer = null;
    this.open();
  }

  delay() { return Math.min(1000 * 2 ** this.retry, 10000); }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/api/tables/${this.tid}/ws?token=${encodeURIComponent(this.token)}`;
    let ws;
    try { ws = new WebSocket(url); } catch { this.dropped(); return; }
    this.ws = ws;
    let fresh = true;
    ws.onopen = () => { this.retry = 0; this.onState("live"); };
    ws.onmessage = (ev) => {
      // The first status after a (re)connect is taken as it is: a restarted server counts
      // its versions from 0 again.
      this.take(JSON.parse(ev.data), fresh);
      fresh = false;
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (ev.code === 4403 || ev.code === 4404) { this.onState("refused", ev.reason); return; }
      this.dropped();
    };
  }

  live() { return this.ws !== null && this.ws.readyState === WebSocket.OPEN; }

  dropped() {
    this.onState("polling");
    this.poll();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), this.delay());
    this.retry += 1;
  }

  take(status, fresh) {
    if (!fresh && status.version === this.version) return;
    this.version = status.version;
    this.onStatus(status);
  }

  async poll() {
    if (this.polling) return;
    this.polling = true;
    let after = this.version ?? 0;
    try {
      while (!this.closed && !this.live()) {
        try {
          const st = await api(`/api/tables/${this.tid}/changes`, { params: { token: this.token, after } });
          if (this.live() || this.closed) break;
          this.take(st, false);
          after = st.version;
        } catch (e) {
          if (e.status === 403 || e.status === 404) { this.onState("refused", e.message); this.close(); break; }
          // The server is away (restarting, say): ask again a little later, from version 0,
          // as a restarted server counts from there.
          after = 0;
          this.version = null;
          await new Promise((r) => setTimeout(r, this.delay()));
        }
      }
    } finally { this.polling = false; }
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) { const ws = this.ws; this.ws = null; ws.close(); }
  }
}

// --- the seat: its panel ---------------------------------------------------------------

const T = { tid: null, token: null, status: null, link: null, clockTimer: null, coach: null };

const STATES = {
  live: "Live: moves arrive as they are made.",
  polling: "Reconnecting… (asking the server for moves meanwhile)",
  refused: "This link is not valid",
};

function setLinkState(state, reason) {
  const el = $("tp-link");
  el.dataset.state = state;
  el.textContent = state === "refused" ? `${STATES.refused}: ${reason}` : STATES[state];
}

async function openSeat(tid, token) {
  if (T.link && T.tid === tid && T.token === token) { ctx.showPage("game"); return; }
  if (T.link) T.link.close();
  Object.assign(T, { tid, token, status: null, coach: null });
  let status;
  try {
    status = await api(`/api/tables/${tid}`, { params: { token } });
  } catch (e) {
    ctx.status(e.message);
    ctx.showPage("tables");
    $("tb-error").textContent = `That table link does not open: ${e.message}`;
    return;
  }
  T.status = status;
  await ctx.openTable(status, token);
  renderPanel();
  T.link = new Link(tid, token, (st) => {
    T.status = st;
    renderPanel();
    ctx.tableChanged(st);
  }, setLinkState);
}

function game() { return T.status && ctx.games.find((g) => g.name === T.status.game.split("(")[0]); }

function copyButton(text, label) {
  const b = h("button", { type: "button", class: "copy", "aria-label": label }, "Copy");
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = "Copied"; } catch {
      const field = b.previousElementSibling;
      field.focus(); field.select();
      b.textContent = "Selected: Ctrl+C";
    }
  });
  return b;
}

function linkRow(label, url, id) {
  const field = h("input", { type: "text", readonly: "", value: url, id, class: "invite-url", "aria-label": `${label}: link` });
  return h("li", { class: "invite" }, h("span", { class: "invite-who" }, label), h("div", { class: "invite-row" }, field, copyButton(url, `Copy ${label}'s link`)));
}

// Who plays each seat: you, a person (an agent while they are away), an agent. A person
// seated here may hand a seat whose person is away (nobody holds its link) to an agent.
function seatsList(st) {
  const agents = st.agents || {};
  return h("ul", { class: "tp-seats" }, ...st.seat_names.map((name, s) => {
    const person = st.persons.includes(s);
    const by = s === st.seat ? "you" : person ? "a person" : "an agent";
    const isAway = !agents[s] && (st.away || []).includes(s);
    const away = agents[s] ? ` (${agents[s]} plays for now)` : isAway ? " (away)" : "";
    const hand = isAway && s !== st.seat && st.seat !== null && !st.finished
      ? h("button", { type: "button", class: "tp-hand", id: `tp-hand-${s}`, onclick: () => handOver(s) },
        `Let an agent play ${name}`)
      : null;
    return h("li", { class: st.to_move === s && !st.finished ? "to-move" : "", style: `--ci:${seatInk(s)}` },
      h("b", {}, name), ` — ${by}${away}`, st.to_move === s && !st.finished ? h("span", { class: "tp-turn" }, " · to move") : null,
      hand);
  }));
}

// The game's default agent plays an away seat until its person takes it back.
async function handOver(seat) {
  const g = game();
  const body = { token: T.token, strategy: g ? g.default_strategy : "random", seat };
  try { await api(`/api/tables/${T.tid}/agent`, { method: "POST", body }); } catch (e) { ctx.status(e.message); }
}

function renderPanel() {
  const st = T.status;
  const box = $("table-panel");
  if (!st) return;
  const mine = kept()[T.tid];
  const parts = [h("h2", {}, "Table"), h("p", { class: "tp-game" }, st.game),
    h("p", { class: "tp-you" }, st.seat === null ? "You watch: public information only until the game ends."
      : `You play ${st.seat_names[st.seat]}.`),
    h("p", { id: "tp-link", class: "tp-link", role: "status" }),
    h("p", { id: "tp-clock", class: "tp-clock hidden", role: "timer", "aria-live": "off" }),
    seatsList(st)];
  if (mine && mine.tokens) {
    parts.push(h("h3", {}, "Invite links"),
      h("p", { class: "hint" }, "Send each friend their seat's link: it opens that seat, and only it."),
      h("ul", { class: "invites", id: "tp-invites" }, ...mine.tokens.map((t) =>
        linkRow(t.seat === mine.you ? `${t.seat_name} (you)` : t.seat_name, linkFor(T.tid, t.token), `invite-${t.seat}`))));
    if (mine.watch) {
      parts.push(h("ul", { class: "invites" }, linkRow("Spectators", linkFor(T.tid, mine.watch), "invite-watch")));
    }
  }
  if (st.seat !== null && !st.finished && "agents" in st) parts.push(...seatControls(st));
  const state = $("tp-link") ? $("tp-link").dataset.state : "polling";
  const reason = $("tp-link") ? $("tp-link").textContent : "";
  box.replaceChildren(...parts);
  if (state === "refused") { $("tp-link").dataset.state = state; $("tp-link").textContent = reason; }
  else setLinkState(T.link && T.link.live() ? "live" : state || "polling");
  tick();
}

// --- the clock, the coach and leaving the seat (where the server offers them) -------------

function tick() {
  clearTimeout(T.clockTimer);
  const st = T.status;
  const el = $("tp-clock");
  if (!el || !st || st.finished || st.deadline === null || st.deadline === undefined) { if (el) el.classList.add("hidden"); return; }
  const left = Math.max(0, Math.ceil(st.deadline - Date.now() / 1000));
  const who = st.to_move === st.seat ? "You have" : `${st.seat_names[st.to_move]} has`;
  el.textContent = left > 0 ? `${who} ${left} s to move; then an agent moves for ${st.to_move === st.seat ? "you" : "them"}.`
    : "Time is up: an agent moves.";
  el.classList.remove("hidden");
  el.classList.toggle("urgent", left <= 10);
  if (left > 0) T.clockTimer = setTimeout(tick, 1000 - (Date.now() % 1000) + 5);
}

function strategySelect(id, label) {
  const g = game();
  const sel = h("select", { id, "aria-label": label },
    ...(g ? g.strategies : []).map((s) => h("option", { value: s, title: g.strategy_about[s] }, s)));
  if (g && g.strategies.includes(g.default_strategy)) sel.value = g.default_strategy;
  return sel;
}

function seatControls(st) {
  const mine = st.seat;
  const away = (st.agents || {})[mine];
  if (away) {
    return [h("h3", {}, "Your seat"),
      h("p", {}, `${away} plays your seat.`),
      h("button", { type: "button", class: "accent", id: "tp-back", onclick: takeBack }, "Take my seat back")];
  }
  const coachSel = strategySelect("tp-coach-strategy", "the agent to ask");
  const leaveSel = strategySelect("tp-leave-strategy", "the agent that plays for you");
  const out = h("div", { id: "tp-coach-answer", class: "tp-coach-answer", "aria-live": "polite" });
  if (T.coach) out.append(...coachAnswer(T.coach));
  return [
    h("h3", {}, "Coach"),
    h("div", { class: "tp-row" }, h("label", { for: "tp-coach-strategy" }, "What would"), coachSel,
      h("button", { type: "button", id: "tp-coach", onclick: () => askCoach(coachSel.value) }, "do here, and why?")),
    out,
    h("h3", {}, "Leave the table"),
    h("div", { class: "tp-row" }, leaveSel,
      h("button", { type: "button", id: "tp-leave", onclick: () => leave(leaveSel.value) }, "plays for me from now on")),
  ];
}

function coachAnswer(c) {
  return [h("p", {}, h("b", {}, c.strategy), " would play ", h("b", { class: "tp-coach-action" }, c.action), "."),
    c.thought ? h("p", { class: "thought" }, `“${c.thought}”`) : null];
}

async function askCoach(strategy) {
  const out = $("tp-coach-answer");
  try {
    T.coach = await api(`/api/tables/${T.tid}/coach`, { params: { token: T.token, strategy } });
    out.replaceChildren(...coachAnswer(T.coach));
  } catch (e) {
    T.coach = null;
    out.replaceChildren(h("p", { class: "hint" }, e.status === 409 ? "The coach answers when it is your turn." : e.message));
  }
}

async function leave(strategy) {
  try { await api(`/api/tables/${T.tid}/agent`, { method: "POST", body: { token: T.token, strategy } }); } catch (e) { ctx.status(e.message); }
}

async function takeBack() {
  try { await api(`/api/tables/${T.tid}/back`, { method: "POST", body: { token: T.token } }); } catch (e) { ctx.status(e.message); }
}

// A new status: the coach's answer was for the turn before.
export function forgetCoach() { T.coach = null; }

// --- routes ---------------------------------------------------------------------------

// `#table` (the form; `?game=` fills it with a setting) or `#table/{tid}/{token}` (a seat).
export function routeTable(hash) {
  const seat = hash.match(/^#table\/([\w-]+)\/([\w-]+)$/);
  if (seat) { openSeat(seat[1], seat[2]); return; }
  const wanted = new URLSearchParams(hash.split("?")[1] || "").get("game");
  if (wanted) {
    const m = wanted.match(/^(\w+)(?:\((.*)\))?$/);
    const preset = m && m[2] ? Object.fromEntries(m[2].split(",").map((kv) => kv.split("="))) : null;
    if (m) renderForm(m[1], preset);
  }
  ctx.showPage("tables");
}

// A tile's "Play with friends": the form with the game's first setting.
export function newTableFor(name) {
  renderForm(name, null);
  history.replaceState(null, "", "#table");
  ctx.showPage("tables");
}

// `c`: games (from /api/games), openTable(status, token), tableChanged(status), status(text),
// showPage(name).
export function initTables(c) {
  ctx = c;
  $("tb-game").replaceChildren(...ctx.games.map((g) => h("option", { value: g.name }, g.name)));
  $("tb-game").addEventListener("change", () => renderForm($("tb-game").value, null));
  $("tb-form").addEventListener("submit", createTable);
  renderForm(ctx.games[0].name, null);
}

// Stop listening (the page opened something else).
export function leaveSeat() {
  if (T.link) T.link.close();
  clearTimeout(T.clockTimer);
  Object.assign(T, { tid: null, token: null, status: null, link: null, coach: null });
}

// --- a spectator's table while the game runs ----------------------------------------------

// The public state only (`table.public`: the game's public parts, e.g. hand sizes, trump,
// the trick, scores), as a list per part: a spectator sees no hand until the game ends.
export function renderPublic(el, data) {
  const parts = data.table.public.map((part) => {
    const rows = part.entries.map((e) => h("tr", {},
      h("th", { scope: "row" }, e.at.length ? e.at.join(" · ") : part.name), h("td", { class: "num" }, fmt(e.value))));
    return h("section", { class: "pub-part", "aria-label": part.name },
      h("h3", {}, part.name.replace(/_/g, " ")), part.help ? h("p", { class: "hint" }, part.help) : null,
      rows.length ? h("table", {}, ...rows) : h("p", { class: "hint" }, "none"));
  });
  const turn = data.terminal ? "Game over" : `To move: ${data.current_label}`;
  el.replaceChildren(h("div", { class: "pub-table" },
    h("p", { class: "pub-note" }, `You watch: the public state only, until the game ends. ${turn}.`), ...parts));
}

function fmt(v) { return Number.isInteger(v) ? String(v) : v.toFixed(2); }
