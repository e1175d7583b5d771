// The phone's copy of the rules at work (rules.js sends each call here): Pyodide and the
// server's Python (scorekeeper/games) in a worker of its own, off the page's thread, so that
// starting the runtime, compiling the templates and drawing a page never hold up a tap.
//   postMessage({id, call, urls, request}) -> {id, answer} (the call's JSON text) or {id, error}
// ``call``: "start", or a function of portable.py (play, save, fields, change) or pages.py
// (sheet, page, panel), each of which takes and gives JSON text.
let started = null;
let runtime = null; // Pyodide, once started
let sheetZip = null; // the pages' bundle, fetched beside the rules
let drawing = null; // the pages' drawing (games.pages), once unpacked and imported

const fetched = (url) => fetch(url).then((response) => {
  if (!response.ok) throw new Error(response.statusText);
  return response.arrayBuffer();
});

function start(urls) {
  if (!started) {
    started = (async () => {
      if (urls.sheet && !sheetZip) {
        sheetZip = fetched(urls.sheet);
        sheetZip.catch(() => { sheetZip = null; });
      }
      const { loadPyodide } = await import(new URL(urls.runtime, location.href).href);
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

// The pages' drawing: its bundle (Jinja, MarkupSafe, the templates) unpacked beside the
// rules, its module imported (the first page drawn then compiles the game's templates).
function drawer(urls) {
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

const RULES = ["play", "save", "fields", "change"];
const PAGES = ["sheet", "page", "panel"];

async function answer(call, urls, request) {
  if (call === "start") {
    await start(urls);
    return "null";
  }
  const text = JSON.stringify(request);
  if (RULES.includes(call)) return (await start(urls))[`${call}_json`](text, "/rules/languages");
  if (PAGES.includes(call)) return (await drawer(urls))[`${call}_json`](text, "/rules/languages", "/rules/templates");
  throw new Error(call);
}

self.addEventListener("message", (event) => {
  const { id, call, urls, request } = event.data;
  answer(call, urls, request).then(
    (found) => self.postMessage({ id, answer: found }),
    (error) => self.postMessage({ id, error: String(error) }),
  );
});
