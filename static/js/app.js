// Scorekeeper: small progressive enhancements. Every page works without this file.
"use strict";

document.documentElement.classList.add("js");

// Keep the phone's screen awake on game pages (where the browser allows it).
function keepAwake() {
  if (!document.body.hasAttribute("data-wake-lock") || !("wakeLock" in navigator)) return;
  let lock = null;
  const request = () => {
    if (document.visibilityState !== "visible" || lock) return;
    navigator.wakeLock.request("screen").then((sentinel) => {
      lock = sentinel;
      lock.addEventListener("release", () => { lock = null; });
    }).catch(() => { /* not allowed now (battery saver, no gesture): fine */ });
  };
  request();
  document.addEventListener("visibilitychange", request);
  document.addEventListener("click", request, { once: true });
}

// Ask before a destructive action (undo a hand): delegated, so it holds for swapped content.
function confirmations() {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.matches("form[data-confirm]") && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
}

// "Not saved: the connection failed" with a "Try again" button (the page's words), for a form
// saved in place whose request failed (also used by sheet.js).
function saveFailedNote(again) {
  const note = document.createElement("p");
  note.className = "save-failed";
  note.setAttribute("role", "alert");
  const words = Words.of(document.body);
  note.textContent = `${words.save_failed || ""} `;
  const retry = document.createElement("button");
  retry.type = "button";
  retry.textContent = words.retry || "↻";
  retry.addEventListener("click", again);
  note.appendChild(retry);
  return note;
}

// A save that got no answer (no connection) is kept on this phone by the outbox (outbox.js),
// which sends it when the link is back; without it (not loaded, no IndexedDB) or for a
// failed answer, ``note`` says it was not saved (also used by sheet.js).
function keptOrNote(error, form, submitter, note) {
  const unanswered = error instanceof TypeError || error.name === "TimeoutError";
  const kept = unanswered && window.Outbox ? Outbox.keep(form, submitter) : Promise.resolve(false);
  kept.then((done) => done || note());
}

// A new idempotency key for a form sent again as a new save (crypto.randomUUID needs a secure
// context: a phone on the table's network over plain http gets 16 random bytes in hex).
function freshKey() {
  return crypto.randomUUID ? crypto.randomUUID()
    : [...crypto.getRandomValues(new Uint8Array(16))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

// A form's fields as the body of its request: URL-encoded, as the browser sends a form itself
// (the server reads that several times faster than multipart: about 2 ms of a save's time);
// multipart only when a file is among them (also used by sheet.js).
function encoded(data) {
  return [...data.values()].some((value) => typeof value !== "string") ? data : new URLSearchParams(data);
}

// How long a save waits for its answer (a link that drops a request without a word would
// keep it waiting for minutes): then it counts as unanswered (also used by sheet.js).
function patience() {
  return window.AbortSignal && AbortSignal.timeout ? AbortSignal.timeout(20000) : undefined;
}

// A save button while its request is out: busy, disabled, saying "Saving…" (the page's
// word); the function returned gives it back as it was, for a request that failed (also used
// by sheet.js).
function busyButton(button) {
  if (!button) return () => {};
  const label = button.textContent;
  button.setAttribute("aria-busy", "true");
  button.disabled = true;
  button.textContent = Words.of(document.body).saving || label;
  return () => {
    button.textContent = label;
    button.disabled = false;
    button.removeAttribute("aria-busy");
  };
}

// Save a game's form in place: one request, and the page's main part is replaced by the
// answer (the totals updated, the next step of the hand) without loading the page again.
// The form keeps what was typed until the answer is there; if the request fails, it says so
// and offers to try again. Without this script the form posts and the page is reloaded.
function inplaceForms() {
  if (!window.fetch || !window.FormData) return;
  const main = document.getElementById("main");
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches("form[data-inplace]") || event.defaultPrevented) return;
    event.preventDefault();
    send(form, event.submitter);
  });

  function send(form, submitter) {
    // Saves kept on this phone go first (outbox.js): this one waits behind them.
    if (window.Outbox && Outbox.count) {
      Outbox.keep(form, submitter).then((kept) => (kept ? Outbox.flush() : post(form, submitter)));
      return;
    }
    post(form, submitter);
  }

  // One save at a time, in the order they were made: a second save tapped while the first
  // is still on its way (the phone's rules drew the next step at once) goes once the first is
  // answered, so the server never gets them the other way round.
  let before = Promise.resolve();

  function post(form, submitter) {
    const button = submitter || form.querySelector("[data-save]");
    const body = encoded(new FormData(form, submitter && submitter.name ? submitter : undefined));
    form.querySelectorAll(".save-failed").forEach((note) => note.remove());
    const restore = busyButton(button);
    before = before.then(() => sent(form, submitter, body, restore));
  }

  function sent(form, submitter, body, restore) {
    const started = performance.now();
    // The game's version this page shows: the answer then holds only the sheet's lines from
    // the hand saved on, and the lines before it are taken from this page (mergedSheet).
    const shown = main.querySelector("[data-game-page][data-version]");
    const headers = shown ? { "X-Fragment": "1", "X-Sheet-Rows": shown.dataset.version } : { "X-Fragment": "1" };
    return fetch(form.action, { method: "POST", body, headers, credentials: "same-origin", signal: patience() })
      .then((response) => response.text().then((html) => ({ response, html })))
      .then(({ response, html }) => {
        if (!html.includes("data-game-page") && !response.ok) throw new Error(String(response.status));
        // Accepted, while the phone's rules already drew a later save's step (play_offline.js):
        // that step stays; the later save's answer draws the server's page.
        if (response.ok && window.SkLocal && SkLocal.drawnAfter(form)) {
          document.dispatchEvent(new CustomEvent("sk:page", { detail: { held: true, form } }));
          return;
        }
        const merged = mergedSheet(main, html);
        if (!merged) return wholePage(form.action);
        main.replaceChildren(merged);
        main.classList.add("just-saved");
        setTimeout(() => main.classList.remove("just-saved"), 4500);
        // ``served``: a hand's save answered, its answer the main part now (offline() below).
        const served = response.ok && /\/hands(\/\d+)?(\/undo)?$/.test(form.action);
        document.dispatchEvent(new CustomEvent("sk:page", { detail: { ms: performance.now() - started, from: response.headers.get("x-version-from"), form, served } }));
        // Before the next paint (so nothing jumps), bring what changed into view: a refusal
        // (beside its field), what the server said of the save ("Bids of hand 3 changed"),
        // or the hand now. Reading the layout here, not above, lets the update land first.
        requestAnimationFrame(() => {
          const refused = document.querySelector(".form-errors:not([hidden]), .has-error, form :is(p.error[role=alert])");
          const target = refused || main.querySelector(".flashes") || document.getElementById("now");
          if (!target) return;
          const box = target.getBoundingClientRect();
          if (box.top < 0 || box.top > window.innerHeight * 0.6) {
            target.scrollIntoView({ block: refused ? "center" : "start" });
          }
        });
      })
      .catch((error) => {
        restore();
        // Offline play's answer first (play_offline.js) puts the form back in its place.
        document.dispatchEvent(new CustomEvent("sk:unanswered", { detail: { form } }));
        keptOrNote(error, form, submitter, () => (form.querySelector(".save-bar") || form).appendChild(saveFailedNote(() => send(form, submitter))));
      });
  }
}


// An answer whose sheet holds only the lines from the hand saved on (``data-sheet-after``:
// the lines up to that one are not in it, ``data-sheet-start``: nor those the sheet does not
// show) with the lines this page shows in between put back before them; null when this page
// lacks one of them (it was drawn from another version), to read the whole part again.
function mergedSheet(main, html) {
  const answer = document.createElement("template");
  answer.innerHTML = html;
  const fresh = answer.content.querySelectorAll("table.sheet > tbody");
  const shown = main.querySelectorAll("table.sheet > tbody");
  for (const [index, body] of fresh.entries()) {
    if (!body.dataset.sheetAfter) continue;
    const start = Number(body.dataset.sheetStart);
    const after = Number(body.dataset.sheetAfter);
    const old = shown[index];
    if (!old) return null;
    const kept = [...old.rows].filter((row) => row.dataset.line && Number(row.dataset.line) > start && Number(row.dataset.line) <= after);
    const lines = new Set(kept.map((row) => Number(row.dataset.line)));
    for (let number = start + 1; number <= after; number += 1) if (!lines.has(number)) return null;
    const first = [...body.rows].find((row) => row.dataset.line) || body.querySelector(".undo-row");
    for (const row of kept) body.insertBefore(row, first);
    body.removeAttribute("data-sheet-after");
    body.removeAttribute("data-sheet-start");
  }
  return answer.content;
}

// The game page's main part read again whole (an answer that could not be merged).
function wholePage(action) {
  const main = document.getElementById("main");
  const page = action.replace(/\/hands(\/\d+)?$/, "");
  return fetch(page, { headers: { "X-Fragment": "1" }, credentials: "same-origin", signal: patience() })
    .then((response) => response.text())
    .then((html) => {
      main.innerHTML = html;
      document.dispatchEvent(new CustomEvent("sk:page", { detail: {} }));
    });
}


// The service worker (templates/shell/sw.js): copies of the game pages and a page of its own
// for when there is no connection. Registered once the page is drawn, never before, as the
// outbox (outbox.js) is loaded on a game page. A page
// asks it to keep a copy of itself when it came before the worker, and after a save made in
// place. A copy shown offline says so at the top ("Offline copy from 21:14").
function offline() {
  const root = document.documentElement;
  if (root.dataset.offlineCopy) {
    const words = Words.of(document.body);
    const mark = Object.assign(document.createElement("p"), { className: "offline-mark" });
    mark.setAttribute("role", "status");
    mark.textContent = Words.fill(words.offline_copy || "", { time: Words.time(new Date(root.dataset.offlineCopy), words) });
    document.getElementById("main").before(mark);
  }
  const worker = document.body.dataset.sw && navigator.serviceWorker;
  // Drawn before the worker took the page over (its first visit, or a worker gone): what the
  // page loads next goes past the worker until it does (play_offline.js asks for it again).
  if (worker && !worker.controller) root.dataset.drawnWithoutWorker = "";
  // The worker's copy of this page (sw.js): after a hand's save, the main part as answered
  // (read in the capture phase, before the page's other scripts change it; not while the
  // game is kept for offline play: play_offline.js), else fetched again; nothing for a dialog.
  const keep = (event) => {
    const said = (event && event.detail) || {};
    const main = said.served && root.dataset.keptOffline === undefined ? document.getElementById("main").innerHTML : null;
    if (!said.dialog) worker.ready.then((registration) => registration.active.postMessage({ keep: location.pathname, main, lang: root.lang }));
  };
  const later = () => {
    // The outbox (a game page's saves kept while the link is down), loaded after the page too.
    const outbox = document.body.dataset.outbox;
    if (outbox && window.indexedDB) document.head.append(Object.assign(document.createElement("script"), { src: outbox }));
    if (worker) worker.register(document.body.dataset.sw).then(() => worker.controller || keep(), () => {});
  };
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
  if (!worker) return;
  window.addEventListener("sk:page", keep, true);
  window.addEventListener("online", keep); // a copy asked for without a connection came to nothing
}

document.addEventListener("DOMContentLoaded", () => {
  offline();
  keepAwake();
  confirmations();
  inplaceForms();
});
