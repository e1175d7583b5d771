// Offline play of an open game (issue 24): the "Keep this game on this phone" switch, and,
// while the link is down, each save of the game page's form checked in the phone by the
// game's own rules and form reader (rules.js: the server's Python, under Pyodide) before the
// outbox (outbox.js) keeps it: a refusal is shown at once with the server's message (in the
// table's language), and nothing is kept; an accepted save updates the totals at once and is
// kept, to be sent with its idempotency key when the link returns (the server replays it
// with its own rules, and stays the authority). Loaded by the outbox (outbox.js) after a game
// page is drawn, never with it; the rules runtime only once the switch is on.
const match = location.pathname.match(/^\/games\/(\d+)$/);
const gameId = match && match[1];
const STORE = `sk-keep-${gameId}`;
const WRITES = /\/games\/\d+\/hands(?:\/(\d+))?(\/undo)?$/;
// The table's changes: one recorded from the panel, the last one undone (the panel's undo,
// the sheet's; a change made on this phone and not sent yet has no number: "None").
const CHANGES = /\/games\/\d+\/(?:table\/changes(?:\/([^/]+)\/remove)?|changes\/([^/]+)\/undo)$/;
const PANEL = `/games/${gameId}/table/changes`;
let data = null; // {urls, request, words, digits}: what the endpoint gave, kept on the phone
let ready = null; // the rules, started

const kept = () => localStorage.getItem(STORE) !== null;
const remember = () => localStorage.setItem(STORE, JSON.stringify(data));

// ``first``: the page just loaded (its steps ahead asked for again, at once); else after a
// save answered online, asked for only when the kept ones no longer cover offline play.
async function refresh(first = false) {
  const response = await fetch(`/offline/play/${gameId}.json`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(response.statusText);
  data = await response.json();
  data.drawn = data.request.entries; // the record the page shows (as the server drew it)
  noteDrawn();
  if (kept()) { remember(); wantAhead(first); }
  return data;
}

// The steps ahead (the server's page at each step still to come, by its own templates): of
// each, the parts of the page a step changes (marked data-step: the hand's head, its forms).
const AHEAD = `sk-ahead-${gameId}`;
const SEEN = `sk-ahead-seen-${gameId}`; // the version of the kept steps, moved on by saves of this page
const AHEAD_LEFT = 6; // fewer steps than this kept ahead of the game's: more are asked for
const AHEAD_GAP = 5000; // ms: at most one ask in this time, unless a step needed now is missing
let asking = null; // the ask under way
let askAgain = false; // something changed while it was out: looked at again when it lands
let lastAsked = 0;
let later = null; // the ask put off (AHEAD_GAP)

// "h:s" of a step (offline_rules._step): its hands entered and scored.
const stepNumbers = (step) => step.split(":").slice(0, 2).map(Number);

// How many kept steps lie ahead of ``step`` (more hands entered or scored, none fewer).
function stepsAfter(ahead, step) {
  const [hands, scored] = stepNumbers(step);
  return Object.keys(ahead.steps).filter((each) => {
    const [h, s] = stepNumbers(each);
    return h >= hands && s >= scored && h + s > hands + scored;
  }).length;
}

// Why the steps ahead are to be asked for again: "now" (offline play would miss a page at
// once: the game's step, the step an undo goes back to, a scored hand's correction form),
// "soon" (few steps left ahead; another phone moved the game), or nothing.
function aheadNeed() {
  const ahead = aheadKept();
  if (!ahead) return "now";
  const needs = data && data.needs;
  const version = Math.max(data.version, heard);
  if (!needs || ahead.version >= version) return null; // nothing newer to be had
  if (Object.keys(ahead.steps).length) {
    const forms = ahead.corrections || {};
    if (!ahead.steps[needs.step] || (needs.back && !ahead.steps[needs.back])) return "now";
    if (needs.scored.some((number) => !forms[number])) return "now";
    const over = Object.keys(ahead.steps).some((each) => each.endsWith(":over"));
    if ((ahead.more || !over) && stepsAfter(ahead, needs.step) < AHEAD_LEFT) return "soon";
  }
  const seen = Number(localStorage.getItem(SEEN) || ahead.version);
  return version > seen ? "soon" : null;
}

// The game's version last heard of from the page's live events (follow.js: a change made
// on another phone, when the page is not loaded again for it).
let heard = 0;
document.addEventListener("sk:moved", (event) => {
  heard = Math.max(heard, Number(event.detail.version) || 0);
  if (data) wantAhead();
});

// A save of this page answered by the server: made on version ``from``, the game now at the
// page's version. Made on the version last seen here, it is no change of another phone's.
function ownSave(from) {
  const page = document.querySelector("#main [data-game-page][data-version]");
  const seen = localStorage.getItem(SEEN);
  if (page && seen !== null && Number(seen) === Number(from)) localStorage.setItem(SEEN, page.dataset.version);
}

// The steps ahead asked for when they are needed (``force``: the switch turned on, the page
// loaded): at most once in AHEAD_GAP, but at once when a page needed now is missing; one ask
// at a time, what changed meanwhile looked at when it lands.
function wantAhead(force = false) {
  if (!kept() || !navigator.onLine) return;
  if (asking) { askAgain = askAgain || force || Boolean(aheadNeed()); return; }
  const need = force ? "now" : aheadNeed();
  if (!need) return;
  clearTimeout(later);
  const wait = need === "now" ? 0 : lastAsked + AHEAD_GAP - Date.now();
  if (wait > 0) { later = setTimeout(() => wantAhead(), wait); return; }
  lastAsked = Date.now();
  asking = fetchAhead().catch(() => {}).finally(() => {
    asking = null;
    if (askAgain) { askAgain = false; wantAhead(); }
  });
}

async function fetchAhead() {
  const response = await fetch(`/offline/play/${gameId}/ahead.json`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(response.statusText);
  const found = await response.json();
  // Several asked in a row (a sync: one after each save): one made from an older game
  // that lands last is not kept over the newer one.
  const before = aheadKept();
  if (before && before.version > found.version) return;
  const steps = {};
  const parts = {};
  for (const [step, html] of Object.entries(found.steps)) {
    ({ html: steps[step], parts: parts[step] } = stepParts(html));
  }
  localStorage.setItem(AHEAD, JSON.stringify({ version: found.version, more: Boolean(found.more), changes: found.changes, steps, parts, corrections: found.corrections || {} }));
  localStorage.setItem(SEEN, String(found.version));
  const box = document.querySelector(".keep-offline");
  if (box) box.dataset.ahead = "";
}

// Of a step's page (the server's, or drawn here): its data-step parts, as one text, and its
// marked parts (partsOf).
function stepParts(html) {
  const page = new DOMParser().parseFromString(html, "text/html");
  return { html: [...page.querySelectorAll("[data-step]")].map((part) => part.outerHTML).join(""), parts: partsOf(page) };
}

// Of a step's page, the parts outside its data-step parts that the phone fills in from its
// own rules (marked data-part: the standings card), each with its frame as the server drew it
// at that step (the card's heading: "Totals", "Final standings") and where it stands: after
// (or else before) the nearest part of the page the phone can find again (an id, a section
// named by its heading, a data-step part, another marked part). A part the step's page has
// not is not in the page at that step.
function partsOf(page) {
  const found = {};
  const steps = [...page.querySelectorAll("[data-step]")];
  const where = (element) => {
    if (element.id) return { id: element.id };
    if (element.dataset.part) return { part: element.dataset.part };
    if (element.hasAttribute("aria-labelledby")) return { labelled: element.getAttribute("aria-labelledby") };
    if ("step" in element.dataset) return { step: steps.indexOf(element) };
    return null;
  };
  page.querySelectorAll("[data-part]").forEach((part) => {
    let at = null;
    for (let sibling = part.previousElementSibling; sibling && !at; sibling = sibling.previousElementSibling) {
      at = where(sibling) && { ...where(sibling), after: true };
    }
    for (let sibling = part.nextElementSibling; sibling && !at; sibling = sibling.nextElementSibling) at = where(sibling);
    found[part.dataset.part] = { html: part.outerHTML, at };
  });
  return found;
}

// The element of the page ``at`` names (partsOf), or null.
function located(at) {
  const main = document.getElementById("main");
  if (!at || !main) return null;
  if (at.id) return document.getElementById(at.id);
  if (at.part) return main.querySelector(`[data-part="${CSS.escape(at.part)}"]`);
  if (at.labelled) return main.querySelector(`[aria-labelledby="${CSS.escape(at.labelled)}"]`);
  return main.querySelectorAll("[data-step]")[at.step] || null;
}

// What of a part the phone does not fill in: a part drawn again only when this differs.
const frameOf = (element) => {
  const copy = element.cloneNode(true);
  copy.querySelectorAll("[data-fill]").forEach((filled) => filled.replaceChildren());
  return copy.outerHTML;
};

// The marked parts of the page as they are at the step the game is now at (partsOf): each
// added where the page made ahead has it, drawn again where its frame differs (the card's
// heading once the game is over), taken away where that page has none. No step made ahead:
// the page's parts stand.
function aheadParts(state) {
  const ahead = aheadKept();
  return (ahead && sameTable(ahead, state) && ahead.parts && ahead.parts[stepKey(ahead, state)]) || null;
}

function placeParts(parts) {
  if (!parts) return;
  const shownNow = [...document.querySelectorAll("#main [data-part]")].map((part) => part.dataset.part);
  for (const name of new Set([...shownNow, ...Object.keys(parts)])) {
    const old = document.querySelector(`#main [data-part="${CSS.escape(name)}"]`);
    const made = parts[name];
    if (!made) { old?.remove(); continue; }
    const part = document.createRange().createContextualFragment(made.html).firstElementChild;
    if (old) {
      if (frameOf(old) !== frameOf(part)) old.replaceWith(part);
      continue;
    }
    const anchor = located(made.at);
    if (anchor && made.at.after) anchor.after(part);
    else if (anchor) anchor.before(part);
  }
}

// Each form drawn from what was made ahead gets a key of its own: a step drawn again (after
// an undo) or a correction form opened twice is a new save, never the first one again.
function freshKeys(root) {
  root.querySelectorAll("input[name=idempotency_key]").forEach((input) => {
    input.value = freshKey(); // app.js
  });
}

const aheadKept = () => JSON.parse(localStorage.getItem(AHEAD) || "null");

// Its hands entered, those scored, and whether the game is over (offline_rules._step).
const stepOf = (state) => `${state.hands.length}:${state.hands.filter((hand) => hand.status === "scored").length}${state.finished ? ":over" : ""}`;

// The step made ahead that draws the page of ``state``: its own; for a game that ends where
// the forms made ahead did not, a game-over page made ahead (any: its head is the same, and
// the phone writes in the winner line, the standings, the notices and the sheet).
function stepKey(ahead, state) {
  const step = stepOf(state);
  if (!ahead || ahead.steps[step] || !state.finished) return step;
  return Object.keys(ahead.steps).find((each) => each.endsWith(":over")) || step;
}

// After a save checked here: the page at the step the game is now at, as the server would
// draw it (its parts made ahead), with what the phone's rules worked out written in.
function stepAhead(state) {
  const ahead = aheadKept();
  if (!ahead || !sameTable(ahead, state)) return null;
  return ahead.steps[stepKey(ahead, state)] || null;
}

// The steps were made ahead for the table as it then was: after a change of the table made
// on this phone (or undone here), none of them is the game's page.
const sameTable = (ahead, state) => ahead.changes === undefined || ahead.changes === (state.changes || []).length;

// The page at the step ``state`` is at: the one made ahead (at once), else drawn here by the
// game's own templates (games/pages.py: after a change of the table, or a step not made
// ahead); of it, its data-step parts and its marked parts (partsOf). Null when neither can be.
async function pageFor(state) {
  const ahead = aheadKept();
  const made = stepAhead(state);
  // Its own step made ahead (a game going on: a game-over page made ahead shows its forms'
  // winners and final lines); else drawn here (a game over gets its own page: its winners,
  // Gin's final lines), else any game-over page made ahead.
  if (made && ahead.steps[stepOf(state)] && !state.finished) return { html: made, parts: aheadParts(state) };
  const module = await ready;
  const answer = module && data.urls && data.urls.sheet
    ? await module.page(data.urls, { ...data.request, sheet: data.sheet }).catch(() => ({}))
    : {};
  if (!answer.page) return made ? { html: made, parts: aheadParts(state) } : null;
  return stepParts(answer.page);
}

// The game at ``state``, its page the one ``pageFor`` found (null: the page's parts stand).
const advanceTo = (state, made) => advance(state, made && made.html, { offline: true }, data.standings, made && made.parts);

function advance(state, html, detail = { offline: true }, standings = data.standings, parts = aheadParts(state)) {
  const old = [...document.querySelectorAll("#main [data-step]")];
  if (html && old.length) {
    const parts = document.createRange().createContextualFragment(html);
    freshKeys(parts);
    // Each in the place of the one before it (what stands between them stays there: the
    // notices box between the hand's head and its form); more after the last, fewer taken away.
    const fresh = [...parts.children];
    old.forEach((part, index) => (index < fresh.length ? part.replaceWith(fresh[index]) : part.remove()));
    let last = fresh[Math.min(old.length, fresh.length) - 1];
    for (const more of fresh.slice(old.length)) { last.after(more); last = more; }
  }
  if (!detail.local) drawSheet(); // online, the server's sheet comes with its answer
  document.dispatchEvent(new CustomEvent("sk:page", { detail }));
  document.dispatchEvent(new CustomEvent("sk:offline", { detail: { state, hand: state.hands[state.hands.length - 1] } }));
  showTotals(state, standings);
  placeParts(parts);
  drawStandings(standings);
  drawNotices(data.notices);
  // The winner line the phone's rules give (the page made ahead says its forms' winners).
  const winner = document.querySelector("#main [data-winner]");
  if (winner && data.winner) winner.textContent = data.winner;
  return Boolean(html);
}

// The score sheet's rows as the server last drew them, and the record they were drawn from:
// a row whose hand (and every hand before it) is still as then is kept as the server drew it.
let drawn = { entries: null, rows: {} };
function noteDrawn() {
  drawn = { entries: data.drawn || null, rows: {} };
  document.querySelectorAll("#main table.sheet > tbody > tr[data-line]:not(.change-line):not([data-offline-row])")
    .forEach((row) => { drawn.rows[row.dataset.line] = row.outerHTML; });
}

// The score sheet drawn again from the phone's record by the game's own templates (the sheet
// card as the server's page draws it: games/pages.py, run by the phone's Python, rules.js's
// ``sheet``), once the step and the totals are on the screen: each hand's row as the server
// drew it while its hand and every hand before it are unchanged since, any other as the phone
// drew it (the game's own cells: Oh Hell's bid/tricks ✓/✗), the undo under the last hand, the
// totals row and the leaders' stars. Drawn in turn, the last save's last; ``sheetDrawn``: the
// sheet of the saves so far drawn.
let sheetDrawn = Promise.resolve();
const painted = () => new Promise((done) => (document.hidden ? setTimeout(done) : requestAnimationFrame(() => setTimeout(done))));

function drawSheet() {
  const every = new URLSearchParams(location.search).get("sheet") === "all";
  const asked = { ...data.request, sheet: { ...data.sheet, every } };
  sheetDrawn = sheetDrawn.then(painted).then(() => ready).then((module) => module.sheet(data.urls, asked))
    .then((answer) => { if (answer.sheet) placeSheet(answer.sheet, asked.entries); })
    .catch(() => {}); // the sheet stays as it was (the server's again once synced)
  return sheetDrawn;
}

function placeSheet(html, entries) {
  const card = document.querySelector("#main .sheet-card");
  const made = document.createRange().createContextualFragment(html).querySelector(".sheet-card");
  if (!card || !made) return;
  let same = 0; // the hands still as the server drew them
  for (const [index, entry] of entries.entries()) {
    if (!drawn.entries || JSON.stringify(entry) !== JSON.stringify(drawn.entries[index])) break;
    if (!("change" in entry)) same += 1;
  }
  made.querySelectorAll("table.sheet > tbody > tr[data-line]:not(.change-line)").forEach((row) => {
    const kept = Number(row.dataset.line) <= same && drawn.rows[row.dataset.line];
    if (kept) row.replaceWith(document.createRange().createContextualFragment(`<table><tbody>${kept}</tbody></table>`).querySelector("tr"));
    else row.dataset.offlineRow = "";
  });
  freshKeys(made);
  // The table in place where the page has one (its scroll and the card's notes stay), else
  // the whole card (the first hand's sheet, or none left after an undo).
  const table = made.querySelector("table.sheet");
  const old = card.querySelector("table.sheet");
  if (table && old) old.replaceWith(table); else card.replaceWith(made);
  document.body.dataset.offlineSheets = String(Number(document.body.dataset.offlineSheets || 0) + 1);
}

async function rules() {
  if (!data.urls) throw new Error(); // the rules' runtime is not installed on this server
  const module = await import(data.urls.script);
  await module.start(data.urls);
  return module;
}

function theSwitch() {
  const box = Object.assign(document.createElement("p"), { className: "keep-offline" });
  const label = document.createElement("label");
  const input = Object.assign(document.createElement("input"), { type: "checkbox", checked: kept() });
  input.dataset.keepOffline = "";
  const state = Object.assign(document.createElement("span"), { className: "hint" });
  state.setAttribute("role", "status");
  state.dataset.keepState = "";
  label.append(input, ` ${data.words.keep}`);
  box.append(label, document.createElement("br"), state);
  const start = () => {
    state.textContent = data.words.loading;
    ready = ready || rules();
    ready.then((module) => { running = module; state.textContent = data.words.kept; box.dataset.ready = ""; warmSheet(module, box); },
      () => { state.textContent = ""; ready = null; });
  };
  // While the game is kept, the page's copy in the worker is the page fetched again after
  // each save (app.js): the phone's drawing may be in the page (its steps, its sheet lines).
  const marked = () => document.documentElement.toggleAttribute("data-kept-offline", kept());
  marked();
  input.addEventListener("change", () => {
    if (input.checked) { remember(); marked(); start(); wantAhead(true); return; }
    localStorage.removeItem(STORE);
    marked();
    localStorage.removeItem(AHEAD);
    localStorage.removeItem(SEEN);
    pending = [];
    state.textContent = "";
    delete box.dataset.ready;
    delete box.dataset.ahead;
  });
  if (kept() && localStorage.getItem(AHEAD)) box.dataset.ahead = "";
  place(box);
  document.addEventListener("sk:page", () => place(box));
  if (kept()) start();
}

// The sheet's drawing made ready while the phone is idle (its bundle unpacked, Jinja imported
// and the game's templates compiled: about a second of the phone's Python, once a page), when
// the link is down or as soon as it goes down: online the server draws the sheet, and the page
// is not held up for it; offline, the first save's sheet is then drawn at once.
function warmSheet(module, keep) {
  const warm = () => {
    const idle = window.requestIdleCallback || ((then) => setTimeout(then, 200));
    idle(() => {
      const asked = { ...data.request, sheet: data.sheet };
      module.sheet(data.urls, asked).then(() => { keep.dataset.sheet = ""; }, () => {});
    }, { timeout: 2000 });
  };
  if (navigator.onLine) window.addEventListener("offline", warm, { once: true });
  else warm();
}

// A first visit: the page was drawn before the app's worker took it over (app.js marks it),
// so offline play's files went past it (its script, the rules and their runtime, the game's
// record). Once the worker takes the page over, each is asked for again (from the browser's
// own cache mostly), and the worker keeps a copy: the page loaded again with no link plays
// on. The worker may take over before the game's record came (a slow link): then at once.
function keptByTheWorker() {
  const worker = navigator.serviceWorker;
  if (!worker || document.documentElement.dataset.drawnWithoutWorker === undefined) return;
  const askAgain = () => {
    const urls = data.urls || {};
    const files = [urls.play];
    if (kept()) files.push(...(urls.files || []), urls.script, urls.rules, urls.sheet, `/offline/play/${gameId}.json`);
    files.filter(Boolean).forEach((url) => fetch(url, { credentials: "same-origin" }).catch(() => {}));
  };
  if (worker.controller) askAgain();
  else worker.addEventListener("controllerchange", askAgain, { once: true });
}

// The switch sits with the game's actions, under the entry, the sheet and the rules (a whole
// line of its own), never in the entry's flow: the entry must still fit one screen. A save
// made in place draws the page's main part again: the switch goes back to its place.
function place(box) {
  const actions = document.querySelector("[data-game-page]");
  if (!actions || box.parentNode === actions) return;
  box.style.flexBasis = "100%";
  actions.append(box);
}

const shown = (value) => {
  const text = String(value).replace("-", "−");
  return data.digits ? text.replace(/[0-9]/g, (digit) => data.digits[Number(digit)]) : text;
};

// A total's change in the last hand, as the templates write it (its sign, ±0).
const changeOf = (change) => Object.assign(document.createElement("span"), {
  className: `delta${change < 0 ? " minus" : change === 0 ? " zero" : ""}`,
  textContent: change > 0 ? `+${shown(change)}` : change < 0 ? shown(change) : `±${shown(0)}`,
});

// The totals as the rules in the phone worked them out, in the page's own places; where the
// place shows the last hand's change (as the page made ahead for this step has it: the
// server's template shows it there), the phone's change (``lines``: the standings', by side).
function showTotals(state, lines = null) {
  const changes = new Map((lines || []).map((line) => [line.side, line.change]));
  for (const [side, total] of Object.entries(state.totals)) {
    document.querySelectorAll(`[data-total="${CSS.escape(side)}"]`).forEach((place) => {
      const label = place.querySelector(".label"); // "total", kept
      const old = place.querySelector(".delta");
      const change = old ? changes.get(side) : null;
      const delta = !lines ? [old].filter(Boolean) : change === null || change === undefined ? [] : [changeOf(change)];
      place.replaceChildren(...(label ? [label, " "] : []), shown(total), ...delta);
    });
  }
}

// The standings card (games/_macros.html, standings) drawn again from the phone's rules
// (portable.standings): its lines in the rules' order, each line the one the server drew for
// that side, its mark (🏆 won, ★ leads), the game's note, its total and the last hand's change.
function drawStandings(lines) {
  const list = document.getElementById("totals");
  if (!list || !lines) return;
  const items = new Map([...list.children].map((item) => [item.querySelector("[data-total]")?.dataset.total, item]));
  if (!lines.every((line) => items.has(line.side))) return; // a side the page does not show: the server's card stands
  const ordered = [];
  for (const line of lines) {
    const item = items.get(line.side);
    item.classList.toggle("leader", line.leader);
    const who = item.querySelector(".who");
    const mark = line.winner ? "🏆" : line.leader ? "★" : "";
    who.textContent = mark ? mark + "\u00a0" + line.side : line.side; // a no-break space, as the template's
    let note = item.querySelector(".note:not(.gone-note)");
    if (line.note && !note) who.after(note = Object.assign(document.createElement("span"), { className: "note" }));
    if (line.note) note.textContent = line.note; else note?.remove();
    const total = item.querySelector("[data-total]");
    const change = line.change === null || line.change === undefined ? [] : [changeOf(line.change)];
    total.replaceChildren(shown(line.total), ...change);
    ordered.push(item);
  }
  list.append(...ordered);
}

// The page's notices box (games/_macros.html, notices_box) written again from the phone's
// rules (portable.save's ``notices``, the game's ``page_notices``): one line each, the box
// hidden with none, as the server draws it.
function drawNotices(notices) {
  const box = document.querySelector("#main [data-part=notices]");
  if (!box || !notices) return;
  box.replaceChildren(...notices.map((text) => Object.assign(document.createElement("p"), { className: "notice", textContent: text })));
  box.hidden = !notices.length;
}

// The rules' refusal, where the server shows it: beside a player's row, or at the form's head.
function showRefusal(form, refused) {
  form.querySelectorAll("[data-offline-error]").forEach((note) => note.remove());
  for (const each of refused) {
    const name = each.field && each.field.includes(".") ? each.field.split(".").pop() : null;
    const row = name && form.querySelector(`li.row[data-player="${CSS.escape(name)}"], fieldset[data-player="${CSS.escape(name)}"]`);
    // A field of the form (the Table panel's: who, the points): at the end of its box, where
    // the server's page shows it.
    const field = !name && each.field && (form.querySelector(`[name="${CSS.escape(each.field)}"]`) || form.querySelector(`[name="new_${CSS.escape(each.field)}"]`));
    const box = field && field.closest("fieldset, .field");
    const note = Object.assign(document.createElement("p"), { className: "error", textContent: each.message });
    note.setAttribute("role", "alert");
    note.dataset.offlineError = each.code;
    if (row) row.append(note); else if (box) box.append(note); else form.prepend(note);
  }
  const first = form.querySelector("[data-offline-error]");
  if (first) first.scrollIntoView({ block: "center" });
}

function request(form, submitter) {
  const url = new URL(form.action, location.href);
  const found = url.pathname.match(WRITES);
  if (!found) return null;
  const fields = {};
  for (const [name, value] of new FormData(form, submitter && submitter.name ? submitter : undefined)) {
    if (typeof value === "string") fields[name] = value;
  }
  const action = found[2] ? "undo" : found[1] ? "update" : "record";
  const number = found[1] ? Number(found[1]) : Number(fields.number);
  return { ...data.request, action, number, phase: fields.phase || "", form: fields };
}

async function checkHere(form, submitter) {
  const module = await ready;
  const answer = await module.save(data.urls, request(form, submitter));
  if (answer.refused) { showRefusal(form, answer.refused); return; }
  form.querySelectorAll("[data-offline-error]").forEach((note) => note.remove());
  data.request.entries = answer.entries;
  data.state = answer.state;
  data.leaders = answer.leaders;
  data.standings = answer.standings;
  data.notices = answer.notices;
  data.winner = answer.winner;
  remember();
  // Kept by the outbox (its idempotency key, and the game's version it was made on: the
  // server refuses it if the game moved meanwhile), then the next step's page in its place.
  const basedOn = form.querySelector("input[name=based_on]") || form.appendChild(Object.assign(document.createElement("input"), { type: "hidden", name: "based_on" }));
  basedOn.value = String(data.version);
  data.version += 1; // each save moves the game's version on by one
  remember();
  // The next step's page: made ahead, or drawn here. A game with neither (its rules' page
  // not installed on the server) stays on this form, locked once kept (as a save kept
  // without the phone's rules), until the link returns.
  const made = await pageFor(answer.state);
  if (window.Outbox) await Outbox.keep(form, submitter, { offline: Boolean(made) });
  const corrected = box && box.contains(form) ? opened : null;
  const fromSheet = Boolean(corrected || form.closest(".undo-row"));
  if (corrected) box.close();
  advanceTo(answer.state, made);
  document.body.dataset.offlineChecked = String(Number(document.body.dataset.offlineChecked || 0) + 1);
  const state = document.querySelector("[data-keep-state]");
  if (state) state.textContent = data.words.checked;
  document.body.dataset.offlineSaves = String(Number(document.body.dataset.offlineSaves || 0) + 1);
  // What the page says of it and the hand corrected, on the sheet drawn again.
  await sheetDrawn;
  if (answer.said) saidOfIt(answer.said, fromSheet);
  if (corrected) shownCorrected(corrected);
}

// A change of the table made offline, as the phone's rules take it (portable.change): the
// panel's form (a field given more than once, such as the hand sizes, as a list), or the undo
// of the last change; null for any other form.
function changeRequest(form, submitter) {
  const found = new URL(form.action, location.href).pathname.match(CHANGES);
  if (!found) return null;
  const fields = {};
  for (const [name, value] of new FormData(form, submitter && submitter.name ? submitter : undefined)) {
    if (typeof value !== "string") continue;
    fields[name] = name in fields ? [].concat(fields[name], value) : value;
  }
  const removed = found[1] || found[2];
  if (removed) return { ...data.request, action: "remove", id: removed };
  return { ...data.request, action: "record", form: fields, before_hand: Number(fields.before_hand) || null };
}

// A change of the table (or its undo) with no link: checked by the phone's rules, refused
// beside its field with what was typed, or kept by the outbox (the undo of a change still
// waiting there takes it out instead: it was never sent); then the game page again at its
// step, drawn here for the table as it now is, and what the server would say of it.
async function checkChange(form, submitter) {
  const module = await ready;
  const asked = changeRequest(form, submitter);
  const answer = await module.change(data.urls, asked);
  if (answer.refused) { showRefusal(form, answer.refused); return; }
  form.querySelectorAll("[data-offline-error]").forEach((note) => note.remove());
  const fromSheet = Boolean(form.closest(".undo-row"));
  const unsent = asked.action === "remove" && window.Outbox && await Outbox.cancel(location.pathname, (url) => new URL(url).pathname === PANEL);
  if (asked.action === "remove" && !unsent && !/^\d+$/.test(asked.id)) return; // sent meanwhile: undone once the page is the server's again
  Object.assign(data, { state: answer.state, leaders: answer.leaders, standings: answer.standings, notices: answer.notices, winner: answer.winner });
  data.request.entries = answer.entries;
  data.request.members = answer.members || data.request.members;
  data.version += unsent ? -1 : 1;
  remember();
  if (!unsent && window.Outbox) await Outbox.keep(form, submitter, { offline: true });
  // The next step drawn first, then the game back with it at once (never the step before).
  const made = await pageFor(answer.state);
  closePanel();
  advanceTo(answer.state, made);
  document.body.dataset.offlineChanges = String(Number(document.body.dataset.offlineChanges || 0) + 1);
  await sheetDrawn;
  if (answer.said) saidOfIt(answer.said, fromSheet);
}

// The table's panel with no link: drawn here by its own template (games/pages.py) for the
// table as the phone has it, in the place of the game page's main part (kept aside, and put
// back by "Back to the game", the phone's back button, or a change saved).
let gamePage = null;
let gameTitle = null; // the game page's title, while the panel has its own
// The phone's own step back past a panel a saved change closed, till it lands: a panel
// opened meanwhile waits for it (else that step back, landing late, would close it).
let goingBack = null;

async function openPanel(href) {
  if (goingBack) await Promise.race([goingBack, new Promise((done) => setTimeout(done, 1000))]);
  const module = await ready;
  const answer = await module.panel(data.urls, { ...data.request, sheet: data.sheet, roster: data.roster || [] }).catch(() => ({}));
  const main = document.getElementById("main");
  if (!answer.page || !main || gamePage) return;
  gamePage = document.createDocumentFragment();
  gamePage.append(...main.childNodes);
  main.innerHTML = answer.page;
  freshKeys(main);
  if (data.urls.panel_css && !document.querySelector(`link[href="${CSS.escape(data.urls.panel_css)}"]`)) {
    document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: data.urls.panel_css }));
  }
  document.body.classList.add("table-panel");
  gameTitle = document.title;
  const heading = main.querySelector("h1");
  if (heading) document.title = `${heading.textContent.trim()} · ${gameTitle}`; // as the panel's page is named
  history.pushState({ panel: href }, "");
  window.scrollTo(0, 0);
  // As a page loaded: a screen reader starts at its heading.
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
  document.dispatchEvent(new CustomEvent("sk:page", { detail: { offline: true, panel: true } }));
}

// No panel stands any more: the game page's title and look again.
function panelGone() {
  gamePage = null;
  document.body.classList.remove("table-panel");
  document.title = gameTitle;
}

function closePanel(popped = false) {
  if (!gamePage) return;
  const main = document.getElementById("main");
  main.replaceChildren(gamePage);
  panelGone();
  // Back where the panel was opened from.
  const link = main.querySelector("a.table-link");
  if (link) link.focus({ preventScroll: true });
  if (!popped && history.state && history.state.panel) {
    goingBack = new Promise((done) => {
      window.addEventListener("popstate", () => { goingBack = null; done(); }, { once: true });
    });
    history.back();
  }
  document.dispatchEvent(new CustomEvent("sk:page", { detail: { offline: true } }));
}

function panelLinks() {
  document.addEventListener("click", (event) => {
    if (navigator.onLine || !kept() || !running || event.button !== 0) return;
    const link = event.target.closest("#main a[href]");
    if (!link) return;
    const path = new URL(link.href).pathname;
    if (!gamePage && path === PANEL) {
      event.preventDefault();
      openPanel(link.href);
    } else if (gamePage && path === location.pathname) {
      event.preventDefault();
      closePanel();
    } else if (gamePage && path.startsWith(`${PANEL}/`)) {
      event.preventDefault(); // correcting an earlier change is the server's: said, not lost
      saidOfIt(data.words.needs_link, false);
    }
  }, true);
  window.addEventListener("popstate", () => closePanel(true));
  // The outbox drew the server's game page (the link came back): no panel stands any more.
  document.addEventListener("sk:page", (event) => {
    if (!(event.detail && event.detail.offline) && gamePage) panelGone();
  });
}

// The sheet's "tap a hand's number to correct it" with no link: the hand's correction form
// as the server made it ahead (its own template), filled in with what the phone's record
// holds for that hand, in a dialog over the sheet as online (sheet.js); saved, it is checked
// here like any save, the dialog closes, the sheet is drawn again with the hand marked.
let box = null;
let opened = null; // the hand whose correction form is open

function theBox() {
  if (box) return box;
  box = Object.assign(document.createElement("dialog"), { className: "correct-dialog" });
  box.dataset.offlineCorrection = "";
  box.addEventListener("click", (event) => { if (event.target === box) box.close(); });
  document.body.append(box);
  return box;
}

async function correct(number, html) {
  const answer = await running.fields(data.urls, { ...data.request, number });
  if (answer.refused) return;
  const dialog = theBox();
  dialog.innerHTML = html;
  freshKeys(dialog);
  const form = dialog.querySelector("form");
  form.querySelectorAll("input[type=radio]").forEach((input) => { input.checked = false; });
  for (const [name, value] of Object.entries(answer.fields)) {
    const field = form.elements.namedItem(name);
    if (field) field.value = value; // a radio group checks the one with this value
  }
  const heading = dialog.querySelector("h1");
  if (heading) {
    heading.id = "correct-title";
    dialog.setAttribute("aria-labelledby", "correct-title");
  }
  opened = number;
  if (!dialog.open) dialog.showModal();
  document.dispatchEvent(new CustomEvent("sk:page", { detail: { offline: true, dialog: true } }));
  form.dispatchEvent(new Event("change", { bubbles: true }));
}

// What the server's page would say of the save ("Hand 1 corrected; later hands re-scored."),
// where it says it: above the sheet for the sheet's undo and corrections (as sheet.js puts
// it), at the top of the page for the rest.
function saidOfIt(text, fromSheet) {
  document.querySelectorAll("#main .flashes[data-offline-said]").forEach((old) => old.remove());
  const flashes = Object.assign(document.createElement("div"), { className: "flashes" });
  flashes.setAttribute("role", "status");
  flashes.dataset.offlineSaid = "";
  flashes.append(Object.assign(document.createElement("p"), { className: "flash flash-success", textContent: text }));
  const heading = fromSheet && document.querySelector("#main .sheet-card h2");
  const outbox = document.getElementById("outbox");
  if (heading) heading.after(flashes);
  else if (outbox && outbox.parentNode) outbox.after(flashes);
  else document.getElementById("main").prepend(flashes);
}

function shownCorrected(number) {
  const link = document.querySelector(`#main .sheet tr[data-line="${number}"] a.hand-link`);
  const row = link && link.closest("tr");
  if (!row) return;
  row.classList.add("just-corrected");
  link.focus({ preventScroll: true });
  row.scrollIntoView({ block: "center" });
}

function corrections() {
  document.addEventListener("click", (event) => {
    if (navigator.onLine || !kept() || !running || event.button !== 0) return;
    const link = event.target.closest("a[href]");
    if (!link) return;
    // The form's way back to the game: here it only closes the dialog.
    if (box && box.contains(link)) {
      if (new URL(link.href).pathname === location.pathname) {
        event.preventDefault();
        box.close();
      }
      return;
    }
    const found = link.matches("#main .sheet a.hand-link") && link.getAttribute("href").match(/\/hands\/(\d+)\/edit$/);
    const ahead = found && aheadKept();
    const html = ahead && ahead.corrections && ahead.corrections[found[1]];
    if (!html) return;
    event.preventDefault();
    event.stopImmediatePropagation(); // not sheet.js's: it asks the server
    correct(Number(found[1]), html);
  }, true);
}

// The forms a save offline is checked here for: those saved in place (the entry, "Change a
// bid"), the undo under the sheet's last hand, and the correction form in the dialog.
const offlineForm = (form) => "inplace" in form.dataset || Boolean(form.closest(".undo-row")) || Boolean(box && box.contains(form));
const changeForm = (form) => CHANGES.test(new URL(form.action, location.href).pathname);

// Online, the phone answers first: a save of the game page's form goes to the server as
// ever (app.js: in place, its idempotency key), and meanwhile the phone's rules check it; if
// they accept it, the next step is drawn and the totals written at once, without waiting for
// the network. The server's answer then replaces the page's main part (the server wins); if
// its game is not the phone's (it refused the save, or its totals differ), the page says so.
// A refusal by the phone's rules draws nothing: the server's answer shows its own messages.
const answered = new WeakSet(); // the forms whose save the server answered
let pending = []; // the phone's answers the server has not answered yet, in order
let checked = null; // the last phone's answer the server answered, to compare with its game
let running = null; // the rules, once started (answered at once, no waiting on a promise)

// Whether the phone drew its answer to a save made after ``form``'s (app.js then keeps that
// step on the page when ``form``'s answer lands).
window.SkLocal = {
  drawnAfter(form) {
    const at = pending.findIndex((each) => each.form === form);
    return at >= 0 && at < pending.length - 1;
  },
};

async function answerFirst(form, asked) {
  const before = { entries: data.request.entries, state: data.state, version: data.version, standings: data.standings, notices: data.notices };
  const answer = await running.save(data.urls, asked);
  // Refused here, or the server answered first (a fast link): the server's page stands.
  if (answer.refused || answered.has(form) || !form.isConnected) return;
  data.request.entries = answer.entries;
  data.state = answer.state;
  data.standings = answer.standings;
  data.notices = answer.notices;
  data.winner = answer.winner;
  data.version += 1;
  const html = stepAhead(answer.state);
  const old = html ? [...document.querySelectorAll("#main [data-step]")] : [];
  const parts = [...document.querySelectorAll("#main [data-part]")];
  pending.push({ form, state: answer.state, old, parts, before });
  if (html) advance(answer.state, html, { offline: true, local: true });
  else { showTotals(answer.state, answer.standings); drawStandings(answer.standings); drawNotices(answer.notices); }
  document.body.dataset.localFirst = String(Number(document.body.dataset.localFirst || 0) + 1);
}

// The server did not answer (no link, an error): the form the save came from back in its
// place, with what was entered (app.js then says it was not saved, or the outbox keeps it).
function unanswered(event) {
  const at = pending.findIndex((each) => each.form === event.detail.form);
  if (at < 0) return;
  // The saves answered here after it were made on its answer: they go with it (each is
  // kept by the outbox, or says it was not saved, as its own request fails).
  const found = pending[at];
  pending = pending.slice(0, at);
  const now = [...document.querySelectorAll("#main [data-step]")];
  if (now.length && found.old.length) {
    now[0].before(...found.old);
    now.forEach((part) => part.remove());
  }
  // The marked parts as they were (a standings card the phone's answer added goes again).
  document.querySelectorAll("#main [data-part]").forEach((part) => {
    if (found.parts.includes(part)) return;
    const was = found.parts.find((each) => each.dataset.part === part.dataset.part);
    if (was) part.replaceWith(was); else part.remove();
  });
  Object.assign(data, { state: found.before.state, version: found.before.version, standings: found.before.standings, notices: found.before.notices });
  data.request.entries = found.before.entries;
  showTotals(found.before.state || { totals: {} }, found.before.standings);
  drawStandings(found.before.standings);
  drawNotices(found.before.notices);
}

function serverWon() {
  const main = document.getElementById("main");
  if (!main || main.querySelector("[data-server-won]")) return;
  const box = Object.assign(document.createElement("div"), { className: "flashes" });
  box.setAttribute("role", "status");
  const note = Object.assign(document.createElement("p"), { className: "flash flash-warning", textContent: data.words.server_won });
  note.dataset.serverWon = "";
  box.append(note);
  const outbox = document.getElementById("outbox");
  if (outbox && outbox.parentNode === main) outbox.after(box); else main.prepend(box);
}

// The server's game (its record, just read again) through the phone's rules, beside the
// phone's answer: the same step and the same totals, or the page says the server's is shown.
async function compare(mine) {
  const found = await running.play(data.urls, data.request);
  const server = found.state;
  data.state = server || data.state;
  const same = server && stepOf(server) === stepOf(mine)
    && JSON.stringify(server.totals) === JSON.stringify(mine.totals);
  if (!same) serverWon();
  document.body.dataset.serverCompared = String(Number(document.body.dataset.serverCompared || 0) + 1);
}

// What is entered on the step the phone drew, while the server's answer is still to come:
// put back into the same form of the server's page when it lands (the same step: its hidden
// fields the same), so that no tap is lost.
let typed = null;
const OWN = ["csrf_token", "idempotency_key"];

function noteTyped(event) {
  const form = event.target.form;
  if (!pending.length || !form || !("inplace" in form.dataset)) return;
  typed = { id: form.id, action: form.action, fields: [...new FormData(form)].filter(([name, value]) => typeof value === "string" && !OWN.includes(name)) };
}

function putBack() {
  const was = typed;
  const form = was && document.getElementById(was.id);
  typed = null;
  if (!form || form.action !== was.action || !("inplace" in form.dataset)) return;
  const hidden = [...form.querySelectorAll("input[type=hidden]")].filter((input) => !OWN.includes(input.name));
  if (!hidden.every((input) => was.fields.some(([name, value]) => name === input.name && value === input.value))) return;
  for (const [name, value] of was.fields) {
    const field = form.elements.namedItem(name);
    if (!field || field.type === "hidden") continue;
    if (field.type === "checkbox") field.checked = true;
    else field.value = value; // a radio group checks the one with this value
  }
  form.dispatchEvent(new Event("change", { bubbles: true }));
  typed = null;
}

function intercept() {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (event.defaultPrevented || !kept() || !ready || !data) return;
    if (changeForm(form)) {
      // Online (and nothing waiting on this phone), the server's, as ever.
      if (navigator.onLine && !(window.Outbox && Outbox.count > 0)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      checkChange(form, event.submitter).then(() => navigator.onLine && window.Outbox && Outbox.flush());
      return;
    }
    if (!offlineForm(form)) return;
    const asked = request(form, event.submitter);
    if (!asked) return;
    typed = null;
    // The undo or a correction while saves kept on this phone still wait (the link just
    // came back): made on the phone's record, so checked here and sent after them, in order.
    const behind = !("inplace" in form.dataset) && window.Outbox && Outbox.count > 0;
    if (navigator.onLine && !behind) {
      if (!("inplace" in form.dataset)) return; // the server's answer, as ever
      // The phone answers first, the server's save goes on (app.js), with the saves kept on
      // this phone first if any (then the outbox's answer is the page's, as today).
      // The phone's answer right after: the server's request is on its way first.
      if (running && !(window.Outbox && Outbox.count)) setTimeout(() => answerFirst(form, asked));
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    checkHere(form, event.submitter).then(() => navigator.onLine && window.Outbox && Outbox.flush());
  }, true);
  corrections();
  panelLinks();
  document.addEventListener("sk:unanswered", unanswered);
  document.addEventListener("change", noteTyped);
  document.addEventListener("input", noteTyped);
  // A save made in place (online) changed the record: the phone's copy follows it; and the
  // server's answer to a save the phone answered first is set beside the phone's answer.
  document.addEventListener("sk:page", (event) => {
    if (event.detail && event.detail.offline) return; // drawn by the phone
    if (event.detail && event.detail.form) answered.add(event.detail.form);
    // A save answered while the phone's answer to a later one is on the page (app.js): that
    // page stays, and so does the phone's record, till the later save's answer.
    const held = Boolean(event.detail && event.detail.held);
    if (!held && event.detail && event.detail.from) ownSave(event.detail.from);
    if (!held) putBack();
    const mine = pending.shift();
    if (mine) checked = mine.state;
    if (held || !navigator.onLine || !kept()) return;
    const compared = checked && !pending.length ? checked : null;
    if (compared) checked = null;
    refresh().then(() => compared && running && compare(compared)).catch(() => {});
  });
}

if (gameId) {
  const copy = localStorage.getItem(STORE);
  (navigator.onLine ? refresh(true).catch(() => (copy ? JSON.parse(copy) : null)) : Promise.resolve(copy && JSON.parse(copy)))
    .then((found) => {
      data = data || found;
      if (!data) return;
      theSwitch();
      intercept();
      keptByTheWorker();
      // The page again with no link (the worker's copy of the last page seen online): the
      // game as the phone has it since, at its step.
      if (!navigator.onLine) noteDrawn();
      if (!navigator.onLine && kept() && data.state) {
        pageFor(data.state).then((made) => advanceTo(data.state, made));
      }
    });
}
