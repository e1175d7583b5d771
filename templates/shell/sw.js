// Scorekeeper's service worker. The app serves it at /sw.js and fills in CONFIG
// (scorekeeper/views/app_shell.py). Written for this app, without a library: see the README,
// "Dependencies".
//
// - install: keep every static file (by its hashed URL) and the offline page in each language.
// - activate: drop what an earlier version kept (the copies of the game pages stay).
// - a static file: from the cache, else from the network.
// - a game page: from the network, and a copy kept; without a connection, the copy, which the
//   page marks "Offline copy from 21:14" (static/js/app.js).
// - any other page: from the network; without a connection, the offline page, in the language
//   of the last page seen, listing the games kept (static/js/offline.js).
// - a write (POST): to the network, untouched (see ``write``); the page's outbox keeps a
//   save that got no answer.
// - offline play's files (/offline/: its script, a kept game's record and steps ahead, the
//   rules and their runtime, fetched only once a phone keeps a game): from the network, a
//   copy kept; without a connection, the copy.
"use strict";

const CONFIG = {{ config|tojson }};
const STATIC = `sk-static-${CONFIG.version}`;
const PAGES = CONFIG.pages;
const STATE = "sk-state";
const GAME_PAGE = new RegExp(CONFIG.game_page);
const LOOSE = { ignoreVary: true };

self.addEventListener("install", (event) => {
  // Without the phone's cookies: what is kept here is the same for every reader.
  const wanted = CONFIG.precache.concat(Object.values(CONFIG.offline))
    .map((url) => new Request(url, { credentials: "omit" }));
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(wanted)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names
      .filter((name) => name.startsWith("sk-static-") && name !== STATIC)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") write(event, url);
  else if (request.mode === "navigate") {
    event.respondWith(GAME_PAGE.test(url.pathname) ? gamePage(event, url) : page(event));
  } else if (url.pathname.startsWith(CONFIG.static)) event.respondWith(staticFile(request));
  else if (url.pathname.startsWith(CONFIG.rules_path)) rulesFile(event, url);
});

// A page asks for a copy of itself (its first load came before the worker; a save made in
// place changed it): { keep: "/games/12" }, fetched; or, after a hand saved in place, with the
// main part the server answered, in the page's language: { keep, main, lang }, put in the
// copy kept in place of its main part (no second request: the whole page rendered again for
// every save, as much of the server's time as the save's own). The page (static/js/app.js)
// sends it only for a hand's save or undo answered 200 (a change of the table alters the
// page's head too: the game's label), reading its main part in the capture phase, before the
// page's other scripts change it (a game's pack writes its status line again), and not while
// the game is kept for offline play (play_offline.js marks the page: the phone's own drawing
// may be in it): then the page is fetched, as for a dialog opened (a correction's form)
// nothing is asked for.
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !GAME_PAGE.test(path)) return;
  const url = new URL(path, self.location.origin).href;
  const asked = new Date().toISOString();
  wanted.set(url, asked);
  const { main, lang } = event.data;
  event.waitUntil(
    (typeof main === "string" ? withMain(url, main, lang, asked) : Promise.resolve(false))
      .then((done) => done || copyOf(url, asked, 1000)));
});

// The main part of a page (templates/base.html marks it; a save's answer is what lies between
// the marks), the page's messages in it (said of the save just made: not of the copy), and
// its language.
const MAIN = /<!--main-->([\s\S]*)<!--\/main-->/;
const FLASHES = /<div class="flashes" role="status">[\s\S]*?<\/div>/;
const LANG = /<html lang="([^"]*)"/;

// The copy kept of a game's page with its main part as the page now shows it (a hand saved:
// the rest of the page, its head, stays as it was); false when there is none to start from,
// or it is in another language.
async function withMain(url, main, lang, asked) {
  if (!main.includes("data-game-page")) return false;
  const copy = await (await caches.open(PAGES)).match(url, LOOSE);
  if (!copy) return false;
  const html = await copy.text();
  const language = html.match(LANG);
  if (!language || language[1] !== lang || !MAIN.test(html)) return false;
  const shown = (main.match(MAIN) || [main, main])[1].replace(FLASHES, "");
  const fresh = html.replace(MAIN, () => `<!--main-->${shown}<!--/main-->`);
  await keep(url, new Response(fresh, { status: 200, headers: copy.headers }), asked);
  return true;
}

// The newest copy asked for, by page: an older request's retries stop when a newer one comes.
const wanted = new Map();

// Fetch a page's copy; without a connection, again a little later (1 s, 2 s, 4 s, then every
// 5 s for five minutes): the link may come back without an "online" event reaching the page.
async function copyOf(url, asked, delay) {
  const started = new Date().toISOString();
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (response.ok && !response.redirected) await keep(url, response, started);
  } catch (error) {
    if (Date.now() - Date.parse(asked) > 300000) return;
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (wanted.get(url) === asked) await copyOf(url, asked, Math.min(delay * 2, 5000));
  }
}

// A write goes to the network as the page sent it (a save that gets no answer is kept by the
// page's outbox, static/js/outbox.js, which sends it again when the link is back). Logging
// out takes the copies of the game pages with it.
function write(event, url) {
  if (url.pathname === CONFIG.logout) event.waitUntil(Promise.all([caches.delete(PAGES), caches.delete(CONFIG.rules)]));
}

// A file kept for good (the rules and their runtime, under their version): with a connection
// the browser fetches it itself (its HTTP cache, and its cache of the compiled runtime), the
// worker only keeps a copy once; without, the copy. Anything else: the network first.
function rulesFile(event, url) {
  if (url.pathname.startsWith(CONFIG.rules_runtime) || url.searchParams.has("v")) {
    if (self.navigator.onLine) event.waitUntil(keepOnce(event.request));
    else event.respondWith(caches.match(event.request, LOOSE).then((kept) => kept || Response.error()));
    return;
  }
  event.respondWith(fetch(event.request).then((response) => {
    const copy = response.ok && response.clone();
    if (copy) event.waitUntil(caches.open(CONFIG.rules).then((cache) => cache.put(event.request, copy)));
    return response;
  }, () => caches.match(event.request, LOOSE).then((kept) => kept || Response.error())));
}

async function keepOnce(request) {
  const cache = await caches.open(CONFIG.rules);
  if (await cache.match(request, LOOSE)) return;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response);
}

async function staticFile(request) {
  const kept = await caches.match(request, LOOSE);
  if (kept) return kept;
  try {
    return await fetch(request);
  } catch (error) {
    // A copy made by an earlier release asks for its own version of a file: today's serves.
    return (await caches.match(request, { ignoreSearch: true, ignoreVary: true })) || Response.error();
  }
}

async function gamePage(event, url) {
  const key = url.origin + url.pathname; // ?sheet=all is the same game
  const asked = new Date().toISOString();
  let response;
  try {
    response = await fetch(event.request);
  } catch (error) {
    return (await keptCopy(key)) || offlinePage();
  }
  remember(event, response);
  if (response.ok) event.waitUntil(keep(key, response.clone(), asked));
  else if (response.type === "opaqueredirect") event.waitUntil(caches.delete(PAGES)); // logged out
  else if (response.status === 404) event.waitUntil(caches.open(PAGES).then((cache) => cache.delete(key)));
  else if (response.status >= 500) return (await keptCopy(key)) || response;
  return response;
}

async function page(event) {
  try {
    const response = await fetch(event.request);
    remember(event, response);
    return response;
  } catch (error) {
    return offlinePage();
  }
}

// The copy of a game page, with the time it was asked for; the oldest copies beyond
// CONFIG.kept_pages are dropped. Two fetches of one page may answer out of order (a slow one
// asked for before a save, a quick one after it): the copy asked for later stays.
async function keep(key, response, asked) {
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  headers.delete("Content-Encoding");
  headers.set(CONFIG.kept_at, asked);
  const copy = new Response(await response.blob(), { status: 200, headers });
  const cache = await caches.open(PAGES);
  const kept = await cache.match(key, LOOSE);
  if (kept && (kept.headers.get(CONFIG.kept_at) || "") > asked) return;
  await cache.put(key, copy);
  const keys = await cache.keys();
  if (keys.length <= CONFIG.kept_pages) return;
  const dated = await Promise.all(keys.map(async (request) =>
    [request, (await cache.match(request, LOOSE)).headers.get(CONFIG.kept_at) || ""]));
  dated.sort((a, b) => a[1].localeCompare(b[1]));
  await Promise.all(dated.slice(0, keys.length - CONFIG.kept_pages).map(([request]) => cache.delete(request)));
}

// The kept copy, marked as one (the page's own headers, its Content-Security-Policy too).
async function keptCopy(key) {
  const copy = await (await caches.open(PAGES)).match(key, LOOSE);
  if (!copy) return null;
  const html = (await copy.text())
    .replace("<html ", `<html data-offline-copy="${copy.headers.get(CONFIG.kept_at)}" `);
  return new Response(html, { status: 200, headers: copy.headers });
}

// The language of the pages (their Content-Language), remembered for the offline page.
let language = null;

function remember(event, response) {
  const code = response.headers.get("Content-Language");
  if (!(code in CONFIG.offline) || code === language) return;
  language = code;
  event.waitUntil(caches.open(STATE).then((cache) => cache.put("language", new Response(code))));
}

async function offlinePage() {
  if (!language) {
    const saved = await (await caches.open(STATE)).match("language");
    language = saved ? await saved.text() : CONFIG.default_language;
  }
  const url = CONFIG.offline[language] || CONFIG.offline[CONFIG.default_language];
  return (await caches.match(url, LOOSE)) || Response.error();
}
