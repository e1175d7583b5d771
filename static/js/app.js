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

  function post(form, submitter) {
    const button = submitter || form.querySelector("[data-save]");
    const body = new FormData(form, submitter && submitter.name ? submitter : undefined);
    form.querySelectorAll(".save-failed").forEach((note) => note.remove());
    const restore = busyButton(button);
    const started = performance.now();
    fetch(form.action, { method: "POST", body, headers: { "X-Fragment": "1" }, credentials: "same-origin", signal: patience() })
      .then((response) => response.text().then((html) => ({ response, html })))
      .then(({ response, html }) => {
        if (!html.includes("data-game-page") && !response.ok) throw new Error(String(response.status));
        main.innerHTML = html;
        main.classList.add("just-saved");
        setTimeout(() => main.classList.remove("just-saved"), 4500);
        document.dispatchEvent(new CustomEvent("sk:page", { detail: { ms: performance.now() - started } }));
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
        keptOrNote(error, form, submitter, () => (form.querySelector(".save-bar") || form).appendChild(saveFailedNote(() => send(form, submitter))));
      });
  }
}

// New game: a preset or a saved rule set fills the options in at once (without this script
// the same buttons ask the server to fill them in).
function presets() {
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-presets] button[data-options]");
    if (!button) return;
    event.preventDefault();
    const form = button.form;
    const options = JSON.parse(button.dataset.options);
    Object.entries(options).forEach(([key, value]) => {
      const field = form.elements[`opt-${key}`];
      if (!field) return;
      if (field.type === "checkbox") field.checked = Boolean(value);
      // A list goes in a text field: in the reader's digits, as the server writes it.
      else field.value = Array.isArray(value) ? value.map(Words.number).join(", ") : String(value);
      field.dispatchEvent(new Event("change", { bubbles: true }));
    });
    form.querySelectorAll("[data-presets] button").forEach((b) => b.removeAttribute("aria-pressed"));
    button.setAttribute("aria-pressed", "true");
  });
}

// New game: − and + beside a number field (44 px each, for one thumb), within its range.
// Without this script the buttons stay hidden and the number is typed.
function steppers() {
  document.querySelectorAll(".stepper .step").forEach((button) => { button.hidden = false; });
  document.addEventListener("click", (event) => {
    const button = event.target.closest(".stepper .step");
    if (!button) return;
    const field = document.getElementById(button.getAttribute("aria-controls"));
    const low = Number(field.min);
    const high = Number(field.max);
    // A field left blank counts as the value the page gave it (its default).
    const typed = Number.isFinite(field.valueAsNumber) ? field.valueAsNumber : Number(field.defaultValue || low);
    const now = Math.round(typed);
    field.value = String(Math.min(high, Math.max(low, now + Number(button.dataset.step))));
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

// New game: the line that sums the options up, and the worked example under the scoring
// values, said again as the options change. The server writes both with the rules (no second
// formula here) in the reader's words; without this script the page says them for the values
// of the last submit.
function optionEcho() {
  document.querySelectorAll("[data-echo]").forEach((box) => {
    const form = box.closest("form");
    const summary = box.querySelector("[data-options-summary]");
    const out = box.querySelector("[data-example] .example");
    let timer = null;
    let pending = null;
    const refresh = () => {
      const query = new URLSearchParams();
      for (const [key, value] of new FormData(form)) {
        if (key.startsWith("opt-")) query.append(key, value);
      }
      if (pending) pending.abort();
      pending = new AbortController();
      fetch(`${box.dataset.echo}&${query}`, {
        signal: pending.signal, headers: { Accept: "application/json" }, credentials: "same-origin",
      })
        .then((answer) => (answer.ok ? answer.json() : Promise.reject(answer)))
        .then((said) => {
          if (summary && said.summary) summary.textContent = said.summary;
          if (!out) return;
          // One hand a line (the text keeps its separators).
          out.replaceChildren();
          (said.example ?? said.problems.join(" ")).split(" · ").forEach((words, index) => {
            if (index) out.append(Object.assign(document.createElement("span"), { className: "sep", textContent: " · " }));
            out.append(Object.assign(document.createElement("span"), { className: "part", textContent: words }));
          });
          out.classList.toggle("error", said.example == null);
          box.dataset.shown = query.toString();
        })
        .catch(() => {});
    };
    const later = (event) => {
      if (!(event.target.name || "").startsWith("opt-")) return;
      clearTimeout(timer);
      timer = setTimeout(refresh, 150);
    };
    form.addEventListener("input", later);
    form.addEventListener("change", later);
  });
}

// New game: tap a name to give it the next free seat; tap again to take it away. Each seated
// name shows its seat, the bar at the bottom how many are seated, and a tap with every seat
// taken says why nothing happened (the page's words, in data-seat-words).
function seatPicker() {
  document.querySelectorAll("form[data-seat-picker]").forEach((form) => {
    const selects = [...form.querySelectorAll("select.seat-select")];
    const words = form.dataset.seatWords ? JSON.parse(form.dataset.seatWords) : null;
    const count = form.querySelector("[data-seat-count]");
    const full = form.querySelector("[data-seat-full]");
    const mark = () => {
      let seated = 0;
      selects.forEach((select) => {
        const row = select.closest("tr");
        const on = select.value !== "";
        row.classList.toggle("seated", on);
        const badge = row.querySelector("[data-seat-no]");
        if (badge) {
          badge.hidden = !on;
          badge.textContent = on ? select.selectedOptions[0].textContent : "";
        }
        if (on) seated += 1;
      });
      if (count && words) count.textContent = words.seated[Math.min(seated, words.seated.length - 1)];
    };
    const refuse = (refused) => { if (full) full.hidden = !refused; };
    form.querySelectorAll(".seat-name").forEach((label) => {
      label.addEventListener("click", (event) => {
        event.preventDefault();
        const select = form.querySelector(`#${CSS.escape(label.htmlFor)}`);
        let seated = true;
        if (select.value) {
          select.value = "";
        } else {
          const taken = new Set(selects.map((s) => s.value).filter(Boolean));
          seated = false;
          for (let seat = 1; seat <= Number(form.dataset.maxSeats); seat += 1) {
            if (!taken.has(String(seat))) { select.value = String(seat); seated = true; break; }
          }
        }
        refuse(!seated);
        mark();
      });
    });
    form.addEventListener("change", (event) => {
      if (event.target.matches("select.seat-select")) refuse(false);
      mark();
    });
    mark();
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
  const keep = () => worker.ready.then((registration) => registration.active.postMessage({ keep: location.pathname }));
  const later = () => {
    // The outbox (a game page's saves kept while the link is down), loaded after the page too.
    const outbox = document.body.dataset.outbox;
    if (outbox && window.indexedDB) document.head.append(Object.assign(document.createElement("script"), { src: outbox }));
    if (worker) worker.register(document.body.dataset.sw).then(() => worker.controller || keep(), () => {});
  };
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
  if (!worker) return;
  document.addEventListener("sk:page", keep);
  window.addEventListener("online", keep); // a copy asked for without a connection came to nothing
}

document.addEventListener("DOMContentLoaded", () => {
  offline();
  keepAwake();
  confirmations();
  inplaceForms();
  presets();
  steppers();
  optionEcho();
  seatPicker();
});
