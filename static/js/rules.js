// The game's rules on this phone: the same Python as the server's (scorekeeper/games), run by
// Pyodide, both served by the app (views/offline_rules.py). Loaded only when a phone keeps a
// game for offline play, never with a page.
//   const rules = await import("/static/js/rules.js");
//   const answer = await rules.play(urls, {game, players, options, entries, language});
//   -> {state} or {refused: [{code, message, field, hand}]}
//   const answer = await rules.save(urls, {...the same, members, action, number, phase, form});
//   -> {entries, state} or {refused: [...]}: a save of the game page's form, as the server's
//   const answer = await rules.fields(urls, {...play's, number});
//   -> {fields} or {refused: [...]}: hand ``number`` as its correction form's fields
//   const answer = await rules.sheet(urls, {...play's, members, sheet});
//   -> {sheet} or {refused: [...]}: the score sheet's card, drawn by the game's own templates
//   (games/pages.py: Jinja, in the sheet's bundle, fetched beside the rules and unpacked
//   when the sheet is first drawn)
//   const answer = await rules.page(urls, {...sheet's});
//   -> {page} or {refused: [...]}: the game page's main part at the record's step, drawn
//   by the game's own templates (after a change of the table made on the phone)
//   const answer = await rules.panel(urls, {...sheet's, roster});
//   -> {page} or {refused: [...]}: the table's panel (its changes' forms), drawn likewise
//   const answer = await rules.change(urls, {...save's, roster, action, form, before_hand});
//   -> {entries, members, state, ...} or {refused: [...]}: a change of the table recorded
//   ("record": the panel's form) or the last one undone ("remove"), as the server's
let started = null;
let runtime = null; // Pyodide, once started
let sheetZip = null; // the sheet's bundle, fetched beside the rules
let drawing = null; // the sheet's drawing (games.pages), once unpacked and imported

const fetched = (url) => fetch(url).then((response) => {
  if (!response.ok) throw new Error(response.statusText);
  return response.arrayBuffer();
});

export function start(urls) {
  if (!started) {
    started = (async () => {
      if (urls.sheet && !sheetZip) {
        sheetZip = fetched(urls.sheet);
        sheetZip.catch(() => { sheetZip = null; });
      }
      const { loadPyodide } = await import(urls.runtime);
      const indexURL = new URL(".", new URL(urls.runtime, location.href)).href;
      const pyodide = await loadPyodide({ indexURL, fullStdLib: false });
      const zip = await fetched(urls.rules);
      pyodide.unpackArchive(zip, "zip", { extractDir: "/rules" });
      pyodide.pyimport("sys").path.insert(0, "/rules");
      runtime = pyodide;
      return pyodide.pyimport("scorekeeper.games.portable");
    })();
    started.catch(() => { started = null; });
  }
  return started;
}

// The sheet's drawing: its bundle (Jinja, MarkupSafe, the templates) unpacked beside the
// rules, its module imported (the first sheet drawn then compiles the game's templates).
export function drawer(urls) {
  if (!drawing) {
    drawing = (async () => {
      await start(urls);
      const zip = await (sheetZip || (sheetZip = fetched(urls.sheet)));
      runtime.unpackArchive(zip, "zip", { extractDir: "/rules" });
      runtime.pyimport("importlib").invalidate_caches();
      return runtime.pyimport("scorekeeper.games.pages");
    })();
    drawing.catch(() => { drawing = null; sheetZip = null; });
  }
  return drawing;
}

export async function play(urls, request) {
  const portable = await start(urls);
  return JSON.parse(portable.play_json(JSON.stringify(request), "/rules/languages"));
}

export async function save(urls, request) {
  const portable = await start(urls);
  return JSON.parse(portable.save_json(JSON.stringify(request), "/rules/languages"));
}

export async function fields(urls, request) {
  const portable = await start(urls);
  return JSON.parse(portable.fields_json(JSON.stringify(request), "/rules/languages"));
}

export async function change(urls, request) {
  const portable = await start(urls);
  return JSON.parse(portable.change_json(JSON.stringify(request), "/rules/languages"));
}

// What the game's templates draw (games/pages.py's ``sheet_json``, ``page_json``, ``panel_json``).
async function drawn(urls, request, kind) {
  const pages = await drawer(urls);
  return JSON.parse(pages[`${kind}_json`](JSON.stringify(request), "/rules/languages", "/rules/templates"));
}

export const sheet = (urls, request) => drawn(urls, request, "sheet");
export const page = (urls, request) => drawn(urls, request, "page");
export const panel = (urls, request) => drawn(urls, request, "panel");
