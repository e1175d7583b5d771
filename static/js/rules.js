// The game's rules on this phone: the same Python as the server's (scorekeeper/games), run by
// Pyodide, both served by the app (views/offline_rules.py), in a worker of their own
// (rules_worker.js: off the page's thread). Loaded only when a phone keeps a game for offline
// play, never with a page.
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
let worker = null;
let asked = 0;
const waiting = new Map(); // the calls sent to the worker, by number, till they are answered

function ask(call, urls, request = null) {
  if (!worker) {
    const url = urls.worker || new URL("rules_worker.js", import.meta.url).href;
    worker = new Worker(url, { type: "module" });
    worker.addEventListener("message", (event) => {
      const { id, answer, error } = event.data;
      const call = waiting.get(id);
      waiting.delete(id);
      if (!call) return;
      if (error === undefined) call.resolve(JSON.parse(answer));
      else call.reject(new Error(error));
    });
    worker.addEventListener("error", (event) => {
      // The worker could not start (its script, the runtime): every call fails, the next one
      // starts a new worker.
      worker = null;
      for (const call of waiting.values()) call.reject(event.error || event);
      waiting.clear();
    });
  }
  return new Promise((resolve, reject) => {
    asked += 1;
    waiting.set(asked, { resolve, reject });
    worker.postMessage({ id: asked, call, urls, request });
  });
}

export const start = (urls) => ask("start", urls);
export const play = (urls, request) => ask("play", urls, request);
export const save = (urls, request) => ask("save", urls, request);
export const fields = (urls, request) => ask("fields", urls, request);
export const change = (urls, request) => ask("change", urls, request);
export const sheet = (urls, request) => ask("sheet", urls, request);
export const page = (urls, request) => ask("page", urls, request);
export const panel = (urls, request) => ask("panel", urls, request);
