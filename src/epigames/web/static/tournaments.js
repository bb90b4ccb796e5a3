// The tournaments page: files and tournaments in the server's --db-dir, a summary with
// 95% intervals and the plots, watching one stored game, and starting a small tournament.
import { api, h, pct } from "./api.js";

const $ = (id) => document.getElementById(id);
let ctx = null;

function num(x, d = 2) { return x === null || x === undefined ? "–" : Number(x).toFixed(d); }

function ciBar(rate, low, high) {
  const bar = h("div", { class: "bar-ci" }, h("div", { class: "fill", style: `width:${100 * rate}%` }));
  if (low !== null && high !== null) bar.append(h("div", { class: "ci", style: `left:${100 * low}%;width:${100 * (high - low)}%` }));
  return bar;
}

function linesTable(title, lines) {
  const t = h("table", {}, h("tr", {}, h("th", {}, title), h("th", { class: "num" }, "games"), h("th", { class: "num" }, "wins"),
    h("th", { class: "num" }, "win rate"), h("th", {}, "95% interval"), h("th", { class: "num" }, "mean return"), h("th", { class: "num" }, "95% interval")));
  for (const l of lines) {
    t.append(h("tr", {}, h("td", {}, h("b", {}, l.label)), h("td", { class: "num" }, l.games), h("td", { class: "num" }, num(l.fractional_wins, 1)),
      h("td", { class: "num" }, pct(l.win_rate)), h("td", {}, ciBar(l.win_rate, l.win_low, l.win_high), h("span", { class: "hint" }, `${pct(l.win_low)} – ${pct(l.win_high)}`)),
      h("td", { class: "num" }, num(l.mean_return)), h("td", { class: "num" }, `${num(l.return_low)} – ${num(l.return_high)}`)));
  }
  return t;
}

// Duplicate seats: each pair of strategies on the same cards, paired block by block.
function differencesTable(rows) {
  const t = h("table", {}, h("tr", {}, h("th", {}, "strategies"), h("th", { class: "num" }, "blocks"),
    h("th", { class: "num" }, "return difference"), h("th", { class: "num" }, "95% interval")));
  for (const d of rows) {
    t.append(h("tr", {}, h("td", {}, h("b", {}, d.label)), h("td", { class: "num" }, d.blocks),
      h("td", { class: "num" }, num(d.mean)), h("td", { class: "num" }, `${num(d.low)} – ${num(d.high)}`)));
  }
  return t;
}

// A wide table in its own horizontal scroller (focusable, so the keyboard can scroll it):
// on a phone the table scrolls, not the page.
function scroll(table, label) {
  return h("div", { class: "table-scroll", tabindex: 0, role: "region", "aria-label": label }, table);
}

async function showTournament(db, name) {
  const box = $("tournament-detail");
  try {
    const s = await api(`/api/tournaments/${encodeURIComponent(db)}/${encodeURIComponent(name)}`);
    const t = s.tournament;
    const games = await api(`/api/tournaments/${encodeURIComponent(db)}/${encodeURIComponent(name)}/games`, { params: { limit: 20 } });
    const gameRows = h("table", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "seats"), h("th", {}, "returns"), h("th", {}, "moves"), h("th", {}, "watch")));
    for (const g of games.games) {
      gameRows.append(h("tr", {}, h("td", {}, g.index), h("td", {}, g.strategies.join(", ")), h("td", {}, g.returns.join(" · ")),
        h("td", {}, g.moves), h("td", {}, h("button", { class: "watch-game", "data-index": g.index,
          onclick: () => ctx.openSession(() => api("/api/sessions/from-tournament", { method: "POST", body: { db, name, index: g.index } }), null) }, "Watch"))));
    }
    const watchIndex = h("input", { type: "number", min: 0, value: 0, style: "width:6rem", "aria-label": "game index" });
    box.replaceChildren(
      h("h2", {}, `${t.name} · ${t.game}`),
      h("div", { class: "hint" }, `${db} · ${s.games} of ${t.games} games · seed ${t.seed} · ${t.seat_scheme} seats · ` +
        `mean length ${num(s.mean_length, 1)} moves (${num(s.length_interval[0], 1)} – ${num(s.length_interval[1], 1)}) · ${s.tie_games} ties`),
      ...s.notes.map((n) => h("div", { class: "hint" }, "Note: " + n)),
      h("h3", {}, "Per strategy"), scroll(linesTable("strategy", s.strategies), "per strategy"),
      h("h3", {}, "Per seat"), scroll(linesTable("seat", s.seats), "per seat"),
      ...(s.differences && s.differences.length ? [h("h3", {}, "On the same cards (duplicate seats)"),
        h("div", { class: "hint" }, "Each block of games is one deal played once per seating; a block's difference is the first strategy's mean return less the second's."),
        scroll(differencesTable(s.differences), "on the same cards")] : []),
      h("div", { class: "plots" }, ...s.plots.map((p) => h("img", { alt: p, src: `/api/tournaments/${encodeURIComponent(db)}/${encodeURIComponent(name)}/plots/${p}.svg` }))),
      h("h3", {}, "Watch a stored game (replayed from its seed)"),
      h("div", {}, "Game index ", watchIndex, " ", h("button", { class: "primary", onclick: () =>
        ctx.openSession(() => api("/api/sessions/from-tournament", { method: "POST", body: { db, name, index: Number(watchIndex.value) } }), null) }, "Watch")),
      scroll(gameRows, "stored games"),
    );
  } catch (e) { box.replaceChildren(h("div", { class: "empty" }, e.message)); }
}

// Without a results folder every start fails, so the form is disabled and says why.
const NO_DB_DIR = "Starting a tournament needs a folder for its results: start the server with " +
  "epigames serve --db-dir FOLDER.";

function offerStart(available) {
  for (const el of $("tournament-form").querySelectorAll("input, select")) el.disabled = !available;
  if (runningJob === null) $("t-start").disabled = !available;  // a running job keeps it off
  $("t-unavailable").textContent = available ? "" : NO_DB_DIR;
  $("t-unavailable").classList.toggle("hidden", available);
}

async function refreshList() {
  const box = $("tournament-list");
  try {
    const d = await api("/api/tournaments");
    offerStart(!!d.db_dir);
    if (!d.db_dir) { box.replaceChildren(h("div", { class: "hint" }, "The server was started without --db-dir.")); return; }
    const t = h("table", {}, h("tr", {}, h("th", {}, "file"), h("th", {}, "tournament"), h("th", {}, "game"), h("th", {}, "games")));
    for (const f of d.files) {
      if (f.error) t.append(h("tr", {}, h("td", {}, f.db), h("td", { colspan: 3, class: "hint" }, f.error)));
      for (const x of f.tournaments) {
        t.append(h("tr", { class: "pick", "data-db": f.db, "data-name": x.name, onclick: () => showTournament(f.db, x.name) },
          h("td", {}, f.db), h("td", {}, h("button", { type: "button", class: "pick-btn",
            onclick: (ev) => { ev.stopPropagation(); showTournament(f.db, x.name); } }, x.name)), h("td", {}, x.game), h("td", {}, `${x.stored}/${x.games}`)));
      }
    }
    box.replaceChildren(h("div", { class: "hint" }, `in ${d.db_dir}`), t);
    if (!d.files.length) box.append(h("div", { class: "hint" }, "No result files yet: start one below."));
  } catch (e) { box.replaceChildren(h("div", { class: "hint" }, e.message)); }
}

// The job this page started and is following (null when none runs).
let runningJob = null;

async function startTournament(ev) {
  ev.preventDefault();
  const body = { db: $("t-db").value, name: $("t-name").value, game: $("t-game").value,
    strategies: $("t-strategies").value.split(",").map((s) => s.trim()), games: Number($("t-games").value), seed: Number($("t-seed").value), seats: $("t-seats").value };
  try {
    let job = await api("/api/tournaments", { method: "POST", body });
    runningJob = job.id;
    $("t-start").disabled = true;
    $("t-cancel").disabled = false;
    while (job.state === "running" || job.state === "cancelling") {
      $("t-progress-bar").style.width = `${(100 * job.done) / Math.max(1, job.total)}%`;
      $("t-progress").textContent = `${job.done} / ${job.total} games · ${job.seconds} s` + (job.state === "cancelling" ? " · cancelling…" : "");
      await new Promise((r) => setTimeout(r, 400));
      job = await api(`/api/jobs/${job.id}`);
    }
    $("t-progress-bar").style.width = job.state === "done" ? "100%" : `${(100 * job.done) / Math.max(1, job.total)}%`;
    $("t-progress").textContent = job.state === "done" ? `done: ${job.total} games in ${job.seconds} s`
      : job.state === "cancelled" ? `cancelled: ${job.done} of ${job.total} games stored (start it again to resume)`
      : `failed: ${job.error}`;
    await refreshList();
    if (job.state === "done" || job.state === "cancelled") await showTournament(job.db, job.name);
  } catch (e) { $("t-progress").textContent = e.message; }
  finally {
    runningJob = null;
    $("t-start").disabled = false;
    $("t-cancel").disabled = true;
  }
}

async function cancelTournament() {
  if (!runningJob) return;
  $("t-cancel").disabled = true;
  try { await api(`/api/jobs/${runningJob}`, { method: "DELETE" }); }
  catch (e) { $("t-progress").textContent = e.message; }
}

export function initTournaments(context) {
  ctx = context;
  $("tab-tournaments").addEventListener("click", refreshList);
  $("tournament-form").addEventListener("submit", startTournament);
  $("t-cancel").addEventListener("click", cancelTournament);
}
