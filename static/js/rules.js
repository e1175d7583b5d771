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
let started = null;

export function start(urls) {
  if (!started) {
    started = (async () => {
      const { loadPyodide } = await import(urls.runtime);
      const indexURL = new URL(".", new URL(urls.runtime, location.href)).href;
      const pyodide = await loadPyodide({ indexURL, fullStdLib: false });
      const zip = await (await fetch(urls.rules)).arrayBuffer();
      pyodide.unpackArchive(zip, "zip", { extractDir: "/rules" });
      pyodide.pyimport("sys").path.insert(0, "/rules");
      return pyodide.pyimport("scorekeeper.games.portable");
    })();
    started.catch(() => { started = null; });
  }
  return started;
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
