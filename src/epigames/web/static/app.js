// The game page: set up a game, step through it, pick a perspective, play a seat,
// and inspect the Kripke model of one subject. All perspective filtering is done by the
// server: this page only shows what the API returns for the chosen perspective.
import { api, h, seatColor, seatInk } from "./api.js";
import * as kwartet from "./games/kwartet.js";
import * as klaverjas from "./games/klaverjas.js";
import * as blufpoker from "./games/blufpoker.js";
import * as kemps from "./games/kemps.js";
import * as generic from "./games/generic.js";
import { renderKripke, renderLegend, renderMatrix } from "./kripke.js";
import { initTournaments } from "./tournaments.js";
import { renderGuide } from "./guide.js";
import { renderLearn, hasLearnPage } from "./learn.js";
import { renderStart } from "./start.js";
import { paramGameString, renderParamInputs } from "./params.js";
import { initTables, routeTable, leaveSeat, newTableFor, forgetCoach, renderPublic } from "./table.js";

const RENDERERS = { kwartet, klaverjas, blufpoker, kemps };
const $ = (id) => document.getElementById(id);

const S = {
  games: [], info: null, data: null, frame: 0, last: 0, perspective: null,
  log: [], logLen: {}, playing: false, timer: null, busy: false,
  subject: "", picture: null, falseWorlds: null, matrixAgent: null, matrixOpen: false,
  selectedSeat: null, humanSeat: 0, pending: null,
  // Cancel pressed while a long game is played to its end over several requests.
  cancelPlay: false,
  // A person's move in flight, and the server's refusal of the last one (shown until the next).
  moving: false, moveError: null,
  // The guided game: every log entry comes with its explanation (`explain`).
  guide: false, guideFrom: null,
  // The Kripke picture follows the subject of the last move until the reader picks one.
  pinned: false,
  // The session whose result dialog was shown (once per game; "Result" opens it again).
  resultShown: null,
  // A seat at a table (table.js): {tid, token}; its requests name the token, not a
  // perspective, and the server answers with that seat's view only.
  table: null,
};

function status(text, ok = false) {
  const el = $("status");
  el.textContent = text || "";
  el.className = "status" + (ok ? " ok" : "");
}

// Where the game's requests go and whose view they ask for: this browser's session seen
// from the chosen perspective, or a table seen by its token's seat.
function base() { return S.table ? `/api/tables/${S.table.tid}` : `/api/sessions/${S.info.session}`; }
function seenBy() { return S.table ? { token: S.table.token } : { perspective: perspectiveParam() }; }

function renderer() {
  return (S.info && RENDERERS[S.info.game_name]) || generic;
}

// --- setup ------------------------------------------------------------------------

function currentGame() { return S.games.find((g) => g.name === $("game-select").value); }

function gameString() { return paramGameString($("params"), currentGame()); }

// The form starts from the game's showcase (a short game that shows its agents at their
// best, `Game.showcase`): its parameters, and its agents in the seats.
function renderParams() {
  const g = currentGame();
  $("learn-link").href = `#learn/${g.name}`;
  $("learn-link").textContent = hasLearnPage(g.name) ? `Learn ${title(g.name)}` : "Learn a game";
  renderParamInputs($("params"), g, refreshSeats);
  refreshSeats();
}

// Parameter changes can overlap: only the newest request draws the seats, and the box says
// when it shows the current settings (data-ready), so nothing acts on a stale seat list.
let seatRequest = 0;

async function refreshSeats() {
  const g = currentGame();
  const mine = ++seatRequest;
  const box = $("seats");
  box.dataset.ready = "0";
  let seats = g.seat_names;
  try {
    const d = await api("/api/game", { params: { spec: gameString() } });
    if (mine !== seatRequest) return;
    seats = d.seat_names;
    status("");
  } catch (e) {
    if (mine === seatRequest) { status(e.message); box.dataset.ready = "1"; }
    return;
  }
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  seats.forEach((name, i) => {
    // Each option says in one sentence how the agent plays (from the library's registry).
    const sel = h("select", { "data-seat": i, "aria-describedby": `seat-about-${i}` },
      h("option", { value: "human", title: YOU }, "you (play)"),
      ...g.strategies.map((s) => h("option", { value: s, title: g.strategy_about[s] }, s)));
    sel.value = old[i] && g.strategies.concat(["human"]).includes(old[i]) &&
      (old[i] !== "human" || i === S.humanSeat) ? old[i] : showcaseAgent(i);
    if (i === S.humanSeat && !old.length) sel.value = "human";
    const about = h("p", { class: "seat-about", id: `seat-about-${i}` });
    const describe = () => { about.textContent = sel.value === "human" ? YOU : g.strategy_about[sel.value] || ""; };
    sel.addEventListener("change", () => {
      if (sel.value === "human") {
        S.humanSeat = i;
        box.querySelectorAll("select").forEach((o) => {
          if (o !== sel && o.value === "human") { o.value = showcaseAgent(Number(o.dataset.seat)); o.dispatchEvent(new Event("change")); }
        });
      }
      describe();
      updatePlayLabel(seats);
    });
    describe();
    box.append(h("div", { class: "seat-row" },
      h("span", { class: "dot", style: `background:${seatColor(i)}` }),
      h("span", { class: "seat-name" }, name), sel), about);
    sel.setAttribute("aria-label", `${name}: who plays`);
  });
  updatePlayLabel(seats);
  box.dataset.ready = "1";
}

function updatePlayLabel(seats) {
  const sels = [...$("seats").querySelectorAll("select")];
  const human = sels.findIndex((s) => s.value === "human");
  $("play-seat-name").textContent = human >= 0 ? seats[human] : "a seat";
  $("play-btn").disabled = human < 0;
}

function strategies() {
  const g = currentGame();
  return [...$("seats").querySelectorAll("select")].map((s) => s.value === "human" ? "human" : s.value || g.strategies[0]);
}

const YOU = "You choose the moves; you see only your own seat while the game runs.";

function title(name) { return name.charAt(0).toUpperCase() + name.slice(1); }

// The game's default agent: one whose games end (Kemps: greedy; random ones run to the cap).
function defaultAgent(g = currentGame()) {
  return g.strategies.includes(g.default_strategy) ? g.default_strategy : g.strategies[0];
}

// The showcase's agent for a seat (its agents go round the seats in turn).
function showcaseAgent(i, g = currentGame()) {
  const agents = g.showcase.strategies.filter((s) => g.strategies.includes(s));
  return agents.length ? agents[i % agents.length] : defaultAgent(g);
}

async function startWatch() {
  // Watching: a seat marked "you" is played by the showcase's agent for it.
  const strats = strategies().map((s, i) => (s === "human" ? showcaseAgent(i) : s));
  // A seed is sent as its digits: a JSON number would lose digits past 2^53.
  const seed = $("seed").value.trim() || "0";
  await openSession(() => api("/api/sessions", { method: "POST", body: { game: gameString(), strategies: strats, seed } }), null);
}

// The same deal as a watched game, an agent in the person's seat (offered once it is over).
async function watchDeal() {
  const d = S.data;
  const info = S.info;
  closeResult();
  const g = S.games.find((x) => x.name === d.game_name);
  const strats = d.strategies.map((s, i) => ((i === info.human || s === "human") && g ? showcaseAgent(i, g) : s));
  await openSession(() => api("/api/sessions", { method: "POST", body: { game: d.game, strategies: strats, seed: d.seed } }), null);
}

// The same game and agents again, the person in the same seat, with a new seed.
async function playAgain() {
  // At a table everyone needs a new link: the form for a new table, the same game in it.
  if (S.table) { closeResult(); location.hash = `#table?game=${encodeURIComponent(S.data.game)}`; return; }
  const d = S.data;
  const human = S.info.human;
  closeResult();
  await openSession(() => api("/api/sessions", { method: "POST", body: { game: d.game, strategies: d.strategies, human_seat: human } }), human);
}

// The review opens where the game is shown (its end); stepping back replays it seen by all.
async function review() {
  closeResult();
  S.perspective = null; S.log = []; S.logLen = {};
  renderPerspectives();
  await goto(S.frame);
}

function closeResult() {
  const dialog = $("result");
  if (dialog.open) dialog.close();
}

// The result of a game a person played, in a dialog at its end: who won, the scores, the
// seed to copy, and what to do next (again, the review with all hands, the deal watched).
function renderResult() {
  const d = S.data;
  const names = d.seat_names;
  const human = S.info.human;
  const winners = d.winners;
  const won = winners.includes(human);
  const everyone = winners.length === names.length;
  $("result-title").textContent = everyone ? "Game over: a tie" : human === null ? "Game over"
    : won ? "Game over: you win" : "Game over: you lose";
  $("result-winners").textContent = !winners.length ? "Nobody wins." : everyone ? "Everyone shares the win."
    : `${winners.map((s) => names[s] + (s === human ? " (you)" : "")).join(" and ")} ${winners.length > 1 ? "win" : "wins"}.`;
  const rows = names.map((name, s) => h("tr", { class: winners.includes(s) ? "winner" : "" },
    h("th", { scope: "row", style: `color:${seatInk(s)}` }, name + (s === human ? " (you)" : "")),
    h("td", {}, s === human ? "you" : d.strategies[s] === "human" ? "a person" : d.strategies[s]),
    h("td", { class: "num" }, String(d.returns[s])),
    h("td", {}, winners.includes(s) ? "wins" : "")));
  $("result-scores").replaceChildren(
    h("caption", {}, "Each seat's score"),
    h("tr", {}, h("th", { scope: "col" }, "seat"), h("th", { scope: "col" }, "played by"),
      h("th", { scope: "col", class: "num" }, "score"), h("th", { scope: "col" }, h("span", { class: "sr-only" }, "result"))),
    ...rows);
  $("end-seed").textContent = d.seed;
  $("copy-seed").textContent = "Copy";
}

async function copySeed() {
  const seed = $("end-seed").textContent;
  try {
    await navigator.clipboard.writeText(seed);
    $("copy-seed").textContent = "Copied";
  } catch {
    // No clipboard (an insecure origin, say): select the digits for Ctrl+C instead.
    getSelection().selectAllChildren($("end-seed"));
    $("copy-seed").textContent = "Selected: press Ctrl+C";
  }
}

// The end of a game a person played: the result dialog once, then a bar that reopens it.
function renderEnd() {
  const bar = $("end-bar");
  const d = S.data;
  if ((S.info.human === null && !S.table) || !d.finished || d.seed === undefined) {
    bar.classList.add("hidden");
    closeResult();
    return;
  }
  // The dialog is filled at the last frame (the only one with the returns), and kept while
  // the review steps back through the game.
  if (d.terminal) renderResult();
  bar.replaceChildren(
    h("span", {}, "Game over · seed ", h("code", {}, d.seed)),
    h("button", { id: "result-open", onclick: () => $("result").showModal() }, "Result and review"));
  bar.classList.remove("hidden");
  $("play-again-btn").textContent = S.table ? "New table" : "Play again";
  if (d.terminal && S.resultShown !== S.info.session) {
    S.resultShown = S.info.session;
    $("result").showModal();
  }
}

async function startPlay() {
  const strats = strategies();
  const human = strats.indexOf("human");
  const agents = strats.map((s, i) => (s === "human" ? showcaseAgent(i) : s));
  await openSession(() => api("/api/sessions", { method: "POST", body: { game: gameString(), strategies: agents, human_seat: human } }), human);
}

// A seat at a table (`status`: the table's status for the token, table.js): the game page
// with the token's requests. Once the game is over the token sees everything.
export async function openTable(status, token) {
  const info = {
    session: `table/${status.table}`, game: status.game, game_name: status.game.split("(")[0],
    seat_names: status.seat_names, human: status.seat, last_frame: status.last_frame,
    finished: status.finished, origin: null,
  };
  // A spectator's frames are seen from the public perspective (-1) until the end.
  await openSession(async () => info, status.finished ? null : status.seat ?? -1, { tid: status.table, token });
}

// A table's status pushed (a move by anyone, the end): play the new frames up to it.
export function tableChanged(st) {
  if (!S.table || st.table !== S.table.tid) return;
  forgetCoach();
  if (st.finished && S.perspective !== null) { S.perspective = null; S.log = []; S.logLen = {}; }
  S.last = Math.max(S.last, st.last_frame);
  if (S.frame < S.last) play();
  else if (S.data && S.data.finished !== st.finished) goto(S.last);
}

// The id of the game on the page (for tests and the console), or null.
export function currentSession() { return S.info ? S.info.session : null; }

// While a game is being created (a long one is played through first: seconds), the start
// buttons are off at once and, past 300 ms, the table says what is happening.
let busyTimer = null;

function setBusy(on) {
  clearTimeout(busyTimer);
  $("page-game").setAttribute("aria-busy", on ? "true" : "false");
  $("watch-btn").disabled = on;
  if (on) {
    $("play-btn").disabled = true;
    busyTimer = setTimeout(() => {
      $("table").append(h("div", { class: "busy", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }),
        "Starting the game: the agents play it through…"));
    }, 300);
  } else {
    document.querySelectorAll("#table .busy").forEach((b) => b.remove());
    if ($("seats").querySelectorAll("select").length) updatePlayLabel([...$("seats").querySelectorAll(".seat-name")].map((e) => e.textContent));
  }
}

export async function openSession(create, perspective, table = null) {
  pause();
  setBusy(true);
  try {
    status("starting…", true);
    const info = await create();
    setBusy(false);
    if (S.info && !S.table && S.info.session !== info.session) api(`/api/sessions/${S.info.session}`, { method: "DELETE" }).catch(() => {});
    if (!table) leaveSeat();
    S.table = table;
    $("page-game").classList.toggle("at-table", !!table);
    S.info = info;
    S.last = info.last_frame;
    S.perspective = info.human !== null && !info.finished ? info.human : perspective;
    S.log = []; S.logLen = {}; S.subject = ""; S.pinned = false; S.picture = null; S.moveError = null;
    closeResult();
    S.data = null;  // the guide explains the new game from its start
    // A renderer may ask for the knowledge matrix from the start (Klaverjas: who holds what).
    S.matrixOpen = !!renderer().showMatrix;
    S.matrixAgent = null;
    $("page-game").dataset.game = info.game_name;
    $("matrix").replaceChildren();
    $("matrix-btn").textContent = S.matrixOpen ? "Hide" : "Show";
    // Nothing of the previous game may stay on the page: its Kripke picture, atoms, answer.
    $("kripke").replaceChildren(h("div", { class: "empty" }, "The picture follows the last move; pick a subject to keep one."));
    $("kripke-legend").replaceChildren();
    $("kripke-caption").textContent = "";
    $("atoms").replaceChildren();
    $("formula-result").textContent = "";
    $("formula-result").className = "formula-result";
    $("subject-select").dataset.key = "";
    S.selectedSeat = null;
    $("origin").textContent = info.origin ? `From ${info.origin}` : "";
    showPage("game");
    renderPerspectives();
    await goto(info.human !== null ? info.last_frame : 0);
    status(info.human !== null ? `You play ${info.seat_names[info.human]}.` : `Watching ${info.game}.`, true);
  } catch (e) { status(e.message); } finally { setBusy(false); }
}

// --- frames -----------------------------------------------------------------------

function perspectiveParam() { return S.perspective === null ? "spectator" : String(S.perspective); }

// The last frame. A watched game is played on as far as it is watched (the server plays a
// few frames past the one asked for), so until it is over `S.last` is only the last frame
// played so far; asked for END (frame -1), the server plays it to its end.
const END = -1;

function allPlayed() { return !!(S.data && S.data.finished) || S.info.human !== null || !!S.table; }

async function goto(frame) {
  if (!S.info) return;
  if (frame === END && allPlayed()) frame = S.last;
  if (frame !== END) frame = Math.max(0, Math.min(S.last, frame));
  if (S.busy) { S.pending = frame; return; }  // run after the request in flight
  S.busy = true;
  try {
    // The log only grows with frames: going forward, ask only for the new entries.
    const forward = frame === END || frame >= S.frame;
    const since = forward && S.data && S.data.perspective === S.perspective
      ? S.log.length : (S.logLen[frame] ?? 0);
    const d = await playedTo(frame, since);
    if (!d) { S.pending = null; return; }  // cancelled
    S.log.length = Math.min(S.log.length, d.log_start);
    while (S.log.length < d.log_start) S.log.push(null);
    S.log.push(...d.log);
    S.log.length = d.log_length;
    // Going forward, the guide explains everything since the frame shown before.
    S.guideFrom = !S.data ? 0 : d.frame > S.frame ? (S.logLen[S.frame] ?? null) : null;
    S.logLen[d.frame] = d.log_length;
    if (d.frame !== S.frame) S.moveError = null;
    // At a table a push may have told of a later frame while this one was on its way.
    S.data = d; S.frame = d.frame; S.last = S.table ? Math.max(S.last, d.last_frame) : d.last_frame;
    // Until the reader picks a subject, the picture shows the one the last move is about.
    if (!S.pinned) S.subject = d.focus || "";
    render();
    if (S.subject) await loadPicture();
    if (S.matrixOpen) await loadMatrix();
  } catch (e) {
    status(e.message);
    pause();
  } finally { S.busy = false; }
  if (S.pending !== null) {
    const next = S.pending;
    S.pending = null;
    await goto(next);
  }
}

// The frame, played first if need be. The server plays a game for a bounded time per
// request and answers 503 with how far it got (`last_frame`): a long game is played to its
// end over several requests, showing how far it is, until done or cancelled (then null).
async function playedTo(frame, since) {
  const ask = () => api(`${base()}/frames/${frame}`,
    { params: { ...seenBy(), since: Math.min(since, S.log.length), guide: S.guide || null } });
  S.cancelPlay = false;
  let reached = S.last;
  try {
    for (;;) {
      try {
        return await ask();
      } catch (e) {
        const got = e.status === 503 ? e.data.last_frame : undefined;
        // No progress (the server is stopping, say): give the reason instead of looping.
        if (!Number.isInteger(got) || got <= reached) throw e;
        reached = S.last = got;
        showPlaying(got);
        if (S.cancelPlay) {
          render();
          status(`Stopped at move ${got.toLocaleString()}; ▶| plays on from there.`, true);
          return null;
        }
      }
    }
  } finally { hidePlaying(); }
}

function showPlaying(last) {
  let box = document.querySelector("#table .busy.playing");
  if (!box) {
    const cancel = h("button", { type: "button", id: "cancel-play-btn", onclick: () => { S.cancelPlay = true; } }, "Cancel");
    box = h("div", { class: "busy playing", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }),
      h("span", { class: "playing-text" }), cancel);
    $("table").append(box);
  }
  box.querySelector(".playing-text").textContent = `Playing to the end: move ${last.toLocaleString()} so far…`;
}

function hidePlaying() {
  const box = document.querySelector("#table .busy.playing");
  if (!box) return;
  const focused = box.contains(document.activeElement);
  box.remove();
  if (focused) $("end-btn").focus();
}

function render() {
  const d = S.data;
  // A table's spectator, while the game runs, is sent the public state only.
  const r = d.table.public ? { renderTable: renderPublic } : renderer();
  r.renderTable($("table"), d, {
    log: S.log, selectedSeat: S.selectedSeat,
    onSeatClick: d.legal_actions.length ? (s) => selectSeat(s) : null,
    move, moving: S.moving, error: S.moveError,
  });
  $("turn").innerHTML = "";
  $("turn").append(d.terminal ? "Game over" : h("span", {}, "To move: ",
    h("b", { style: `color:${seatInk(d.current_player)}` }, d.current_label)));
  $("scrub").max = S.last; $("scrub").value = S.frame;
  $("frame-label").textContent = `move ${S.frame} / ${S.last}${allPlayed() ? "" : "…"}`;
  $("back-btn").disabled = $("first-btn").disabled = S.frame === 0;
  $("fwd-btn").disabled = $("end-btn").disabled = S.frame >= S.last;
  if (S.info.human !== null) renderPerspectives();
  renderLog();
  renderGuide($("guide"), S.log, S.guide, S.guideFrom);
  renderSubjects();
  renderHuman();
  renderEnd();
}

function renderHuman() {
  const bar = $("human-bar");
  const d = S.data;
  if (S.info.human === null || !d.legal_actions.length) { bar.classList.add("hidden"); return; }
  // Shown while the renderer draws (no paint in between), so that it can focus a button.
  bar.classList.remove("hidden");
  const shown = renderer().renderMoves(bar, d, { selectedSeat: S.selectedSeat, selectSeat, move });
  bar.classList.toggle("hidden", !shown);
}

function selectSeat(s) {
  S.selectedSeat = s;
  render();
}

async function move(action) {
  if (S.moving) return;
  // Hide the picker and disable the table's buttons (cards in a hand) at once: until the
  // next frame is drawn they belong to the frame just left, and a click must not send a
  // move from that stale list.
  $("human-bar").classList.add("hidden");
  document.querySelectorAll("#table button").forEach((b) => { b.disabled = true; });
  S.moving = true;
  S.moveError = null;
  let r;
  try {
    r = S.table ? await api(`${base()}/moves`, { method: "POST", body: { token: S.table.token, action } })
      : await api(`${base()}/moves`, { method: "POST", body: { seat: S.info.human, action } });
  } catch (e) {
    // Refused (e.g. an illegal card, with the game's reason): the game is as it was, so the
    // same frame is drawn again with the reason, and the person chooses again.
    S.moving = false;
    S.moveError = e.message;
    status(e.message);
    render();
    return;
  }
  S.moving = false;
  const from = S.frame;
  S.last = S.table ? Math.max(S.last, r.last_frame) : r.last_frame;
  status(r.finished ? "The game is over." : "", true);
  await goto(from + 1);
  if (S.frame < S.last) play();
}

function renderLog() {
  const ol = $("log");
  const names = S.data.seat_names;
  ol.replaceChildren();
  let lastDecision = -1;
  S.log.forEach((e, i) => { if (e && e.type === "decision") lastDecision = i; });
  S.log.forEach((e, i) => {
    if (!e) return;
    if (e.type === "decision") {
      // At a table every person's move is marked `human`: only this seat's is "you".
      const who = names[e.seat] + (e.human && (!S.table || e.seat === S.info.human) ? " (you)" : "");
      // Another seat's move, seen from a seat: no label, no thought (they are its own).
      const thought = e.thought ? h("div", { class: "thought" }, `“${e.thought}”`) : null;
      ol.append(h("li", { class: "decision" + (i === lastDecision ? " latest" : ""), style: `--c:${seatColor(e.seat)};--ci:${seatInk(e.seat)}` },
        h("span", { class: "who" }, who), " ", h("span", { class: "hint" }, e.action || "moved"), thought));
    } else {
      const failed = e.kind === "ask" && e.data && e.data.success === false;
      ol.append(h("li", { class: `event kind-${e.kind}${e.public ? "" : " private"}${failed ? " failed" : ""}` },
        h("span", { class: "tag" }, e.public ? "public" : "private"), e.text));
    }
  });
  ol.scrollTop = ol.scrollHeight;
}

function renderPerspectives() {
  const box = $("perspectives");
  box.replaceChildren();
  const info = S.info;
  if (S.table) {
    // A token sees one seat (everything once the game is over): nothing to choose.
    const over = S.data && S.data.finished;
    box.append(h("span", { class: "seen-by" }, over ? "everyone (the game is over)"
      : info.human === null ? "a spectator (public information only)" : `${info.seat_names[info.human]} (you)`));
    return;
  }
  const playing = info.human !== null && !(S.data && S.data.finished);
  const opts = [[null, "Spectator"], ...info.seat_names.map((n, i) => [i, n])];
  for (const [p, label] of opts) {
    const b = h("button", { class: p === S.perspective ? "active" : "", "data-perspective": p === null ? "spectator" : p,
      onclick: async () => { S.perspective = p; S.log = []; S.logLen = {}; renderPerspectives(); await goto(S.frame); } }, label);
    if (playing && p !== info.human) { b.disabled = true; b.title = "while you play you see only your own seat"; }
    if (p !== null) b.style.borderBottom = `3px solid ${seatColor(p)}`;
    box.append(b);
  }
}

// --- playback ---------------------------------------------------------------------

function speed() { return Number($("speed").value); }

// The pause icon is drawn, two bars in the text colour: Debian's fonts for Chromium have no
// ⏸ glyph (▶ they have).
function pauseLabel() {
  const ns = "http://www.w3.org/2000/svg";
  const icon = document.createElementNS(ns, "svg");
  for (const [k, v] of Object.entries({ class: "icon", viewBox: "0 0 10 12", width: "10", height: "12",
    "aria-hidden": "true", focusable: "false" })) icon.setAttribute(k, v);
  for (const x of [1, 6]) {
    const bar = document.createElementNS(ns, "rect");
    for (const [k, v] of Object.entries({ x, y: 1, width: 3, height: 10, fill: "currentColor" })) bar.setAttribute(k, v);
    icon.append(bar);
  }
  return [icon, " Pause"];
}

function play() {
  if (!S.info) return;
  if (S.frame >= S.last && S.info.human === null && !S.table) goto(0);
  S.playing = true;
  $("play-pause-btn").replaceChildren(...pauseLabel());
  clearInterval(S.timer);
  S.timer = setInterval(async () => {
    if (S.busy) return;
    if (S.frame >= S.last) { pause(); return; }
    await goto(S.frame + 1);
  }, 1000 / speed());
}

function pause() {
  S.playing = false;
  clearInterval(S.timer);
  $("play-pause-btn").textContent = "▶ Play";
}

// --- Kripke panel -------------------------------------------------------------------

function renderSubjects() {
  const sel = $("subject-select");
  const subjects = S.data.subjects;
  const key = subjects.join("|");
  if (sel.dataset.key !== key) {
    sel.replaceChildren(h("option", { value: "" }, subjects.length ? "the last move's (follows the game)" : "(none)"),
      ...subjects.map((s) => h("option", { value: s }, s)));
    sel.dataset.key = key;
  }
  if (S.subject && !subjects.includes(S.subject)) {
    $("kripke-caption").textContent = `${S.subject} is out of play now.`;
  }
  sel.value = S.pinned && subjects.includes(S.subject) ? S.subject : "";
  const agents = S.data.seat_names;
  const ma = $("matrix-agents");
  if (ma.dataset.key !== agents.join("|")) {
    ma.replaceChildren(...agents.map((a) => h("button", { "data-agent": a, onclick: () => { S.matrixAgent = a; loadMatrix(); } }, a)));
    ma.dataset.key = agents.join("|");
  }
}

let pictureAsked = 0;  // answers to older picture requests arrive late and are dropped

async function loadPicture() {
  if (!S.subject || !S.data.subjects.includes(S.subject)) return;
  const asked = ++pictureAsked;
  try {
    const pic = await api(`${base()}/frames/${S.frame}/picture`,
      { params: { subject: S.subject, ...seenBy() } });
    if (asked !== pictureAsked) return;
    const changed = S.picture && S.picture.subject === pic.subject && S.picture.world_count !== pic.world_count;
    S.picture = pic;
    S.falseWorlds = null;
    renderKripke($("kripke"), pic, S.data.seat_names);
    renderLegend($("kripke-legend"), pic, S.data.seat_names);
    $("kripke-caption").textContent = `${S.pinned ? "" : `${pic.subject}, the last move's · `}at move ${S.frame}` +
      (changed ? " — worlds changed" : "");
    $("atoms").replaceChildren(...pic.atoms.slice(0, 24).map((a) =>
      h("button", { type: "button", title: a.name, onclick: () => insertAtom(a.typed) }, a.typed)));
  } catch (e) {
    if (asked === pictureAsked) $("kripke").replaceChildren(h("div", { class: "empty" }, e.message));
  }
}

function insertAtom(text) {
  const f = $("formula");
  const at = f.selectionStart ?? f.value.length;
  f.value = f.value.slice(0, at) + text + f.value.slice(f.selectionEnd ?? at);
  f.focus();
}

async function askFormula(ev) {
  ev.preventDefault();
  const out = $("formula-result");
  if (!S.picture) { out.textContent = "Pick a card (or the cup) first."; out.className = "formula-result error"; return; }
  try {
    const r = await api(`${base()}/formula`, { method: "POST",
      body: { frame: S.frame, subject: S.subject, ...seenBy(), formula: $("formula").value } });
    // "cannot tell" is neither colour, as in Ask the game.
    out.className = "formula-result " + (r.verdict === "true" ? "true" : r.verdict === "false" ? "false" : "");
    // A drawn world may stand for several worlds of the exact model, true in some of them.
    const mixed = r.mixed_worlds.length ? `\ntrue in some of the exact worlds of: ${r.mixed_worlds.join(", ")}` : "";
    out.textContent = `${r.formula}\n→ ${r.answer}` +
      (r.false_worlds.length ? `\nfalse in: ${r.false_worlds.join(", ")}` : r.mixed_worlds.length ? "" : "\ntrue in every world") + mixed;
    renderKripke($("kripke"), S.picture, S.data.seat_names, r.false_worlds);
  } catch (e) {
    out.className = "formula-result error";
    out.textContent = e.message;
  }
}

// A formula about the game state (every card, or the cup), not one picture: a spectator
// gets the truth and who knows it; a seat only what it can tell (the server decides).
async function askState() {
  const out = $("formula-result");
  if (!S.info) return;
  try {
    const r = await api(`${base()}/ask`, { method: "POST",
      body: { frame: S.frame, ...seenBy(), formula: $("formula").value } });
    if (r.perspective === null) {
      out.className = "formula-result " + (r.value ? "true" : "false");
      out.textContent = `${r.formula}\n→ ${r.answer}\n${r.kind} consistent with the public information: ${r.worlds}`;
    } else {
      out.className = "formula-result " + (r.verdict === "true" ? "true" : r.verdict === "false" ? "false" : "");
      const others = Object.entries(r.others).map(([who, tell]) => `${who}: ${tell}`).join(", ");
      out.textContent = `${r.formula}\n→ ${r.answer}\nas ${r.perspective} can tell — ${others}`;
    }
  } catch (e) {
    out.className = "formula-result error";
    out.textContent = e.message;
  }
}

let matrixAsked = 0;

async function loadMatrix() {
  S.matrixOpen = true;
  if (!S.matrixAgent) S.matrixAgent = S.perspective === null ? S.data.seat_names[0] : S.data.seat_names[S.perspective];
  const asked = ++matrixAsked;
  try {
    const m = await api(`${base()}/frames/${S.frame}/matrix`, { params: seenBy() });
    if (asked !== matrixAsked) return;
    if (!m.agents.includes(S.matrixAgent)) S.matrixAgent = m.agents[0];
    document.querySelectorAll("#matrix-agents button").forEach((b) => {
      b.classList.toggle("active", b.dataset.agent === S.matrixAgent);
      b.disabled = !m.agents.includes(b.dataset.agent);
    });
    (renderer().renderMatrix || renderMatrix)($("matrix"), m, S.matrixAgent, S.data.seat_names, S.data);
    $("matrix-btn").textContent = "Hide";
  } catch (e) { if (asked === matrixAsked) $("matrix").replaceChildren(h("div", { class: "hint" }, e.message)); }
}

// --- pages ------------------------------------------------------------------------

export function showPage(name) {
  document.querySelectorAll(".tab").forEach((t) => {
    t.classList.toggle("active", t.dataset.page === name);
    t.setAttribute("aria-selected", t.dataset.page === name ? "true" : "false");
  });
  document.querySelectorAll("main.page").forEach((p) => p.classList.toggle("hidden", p.id !== `page-${name}`));
}

// --- learning a game ----------------------------------------------------------------

function setGuide(on) {
  S.guide = on;
  $("guide-toggle").checked = on;
  S.log = []; S.logLen = {};
}

// A game from the start page or a learn page: the game's showcase (its form defaults),
// watched or played from the first seat, explained move by move when `guided`.
async function startShowcase(name, play, guided) {
  $("game-select").value = name;
  S.humanSeat = 0;
  $("seats").replaceChildren();
  renderParams();
  await refreshSeats();
  $("seats").querySelectorAll("select").forEach((sel, i) => {
    sel.value = play && i === 0 ? "human" : showcaseAgent(i);
    sel.dispatchEvent(new Event("change"));
  });
  setGuide(guided);
  history.replaceState(null, "", location.pathname);
  await (play ? startPlay() : startWatch());
}

function route() {
  if (location.hash.startsWith("#table")) { routeTable(location.hash); return; }
  const m = location.hash.match(/^#learn(?:\/(\w+))?$/);
  if (m) {
    renderLearn($("page-learn"), m[1] || $("game-select").value, (name, play) => startShowcase(name, play, true));
    showPage("learn");
  } else if (location.hash === "#games") showPage("game");
  else if (!S.info) showPage("start");
}

async function init() {
  S.games = await api("/api/games");
  $("game-select").replaceChildren(...S.games.map((g) => h("option", { value: g.name }, g.name)));
  renderStart($("tiles"), S.games, {
    watch: (name) => startShowcase(name, false, true),
    play: (name) => startShowcase(name, true, false),
    friends: (name) => newTableFor(name),
    title,
  });
  initTables({ games: S.games, openTable, tableChanged, status, showPage });
  $("game-select").addEventListener("change", renderParams);
  renderParams();
  $("watch-btn").addEventListener("click", startWatch);
  $("play-btn").addEventListener("click", startPlay);
  $("first-btn").addEventListener("click", () => { pause(); goto(0); });
  $("back-btn").addEventListener("click", () => { pause(); goto(S.frame - 1); });
  $("fwd-btn").addEventListener("click", () => { pause(); goto(S.frame + 1); });
  $("end-btn").addEventListener("click", () => { pause(); goto(END); });
  $("play-pause-btn").addEventListener("click", () => (S.playing ? pause() : play()));
  $("scrub").addEventListener("input", () => { pause(); goto(Number($("scrub").value)); });
  $("speed").addEventListener("input", () => { $("speed-label").textContent = `${speed()}/s`; if (S.playing) play(); });
  $("subject-select").addEventListener("change", async () => {
    const picked = $("subject-select").value;
    S.pinned = picked !== "";
    S.subject = picked || (S.data && S.data.focus) || "";
    S.picture = null;
    await loadPicture();
  });
  $("result-close").addEventListener("click", closeResult);
  $("play-again-btn").addEventListener("click", playAgain);
  $("review-btn").addEventListener("click", review);
  $("watch-deal-btn").addEventListener("click", watchDeal);
  $("copy-seed").addEventListener("click", copySeed);
  $("formula-form").addEventListener("submit", askFormula);
  $("ask-state").addEventListener("click", askState);
  $("matrix-btn").addEventListener("click", () => {
    if (S.matrixOpen) { S.matrixOpen = false; $("matrix").replaceChildren(); $("matrix-btn").textContent = "Show"; }
    else if (S.info) loadMatrix();
  });
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => {
    if (t.dataset.page === "learn") location.hash = location.hash.startsWith("#learn") ? location.hash : "#learn";
    else history.replaceState(null, "", t.dataset.page === "game" ? "#games" : t.dataset.page === "tables" ? "#table" : location.pathname);
    showPage(t.dataset.page);
  }));
  $("guide-toggle").addEventListener("change", () => { setGuide($("guide-toggle").checked); if (S.info) goto(S.frame); else renderGuide($("guide"), [], false); });
  window.addEventListener("hashchange", route);
  route();
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    // A focused button takes Enter and Space itself (keyboard play: a card in the hand).
    if ((ev.key === " " || ev.key === "Enter") && ev.target.closest("button")) return;
    if (ev.key === "ArrowRight") goto(S.frame + 1);
    else if (ev.key === "ArrowLeft") goto(S.frame - 1);
    else if (ev.key === "Home") goto(0);
    else if (ev.key === "End") goto(END);
    else if (ev.key === " ") { ev.preventDefault(); S.playing ? pause() : play(); }
  });
  initTournaments({ openSession, status });
  document.body.dataset.ready = "1";
}

init().catch((e) => status(e.message));
