// The outbox: a save made in place (a game page's form, a correction in the sheet's dialog)
// that cannot reach the server is kept on this phone (IndexedDB: the form's idempotency key and
// what it said), shown at once ("1 save kept on this phone, not sent yet", the form locked with
// what was entered), and sent in order as soon as the link is back: on the "online" event,
// with a retry that waits longer each time (1 s, 2 s, ... a minute at most), and when any game
// page loads, so also after the tab was closed. The server answers a key it saw before with
// its first answer (Idempotent-Replayed): a save whose answer was lost is not saved twice.
// A refusal when it is sent (the rules, or another phone saved that hand first) is shown: the
// server's page with its message, and in the list of what waits the message and, for a hand
// saved by another phone, each value where the two differ. Nothing leaves the list without
// the scorekeeper's say: "Discard" (asked first) takes an entry out.
// Loaded by app.js once a game page is drawn; its words are the page's (body data-words).
"use strict";

window.Outbox = (function () {
  const STORE = "saves";
  const words = Words.of(document.body);
  const main = document.getElementById("main");
  const fragment = { "X-Fragment": "1" };
  let base = null; // the database, once opened
  let wait = 1000; // the next retry's delay
  let timer = null;
  let sending = null;
  let again = false;
  let entries = []; // what waits, in order (as last read)

  function db() {
    base = base || new Promise((resolve, reject) => {
      const opening = indexedDB.open("sk-outbox", 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: "key" });
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
    return base;
  }

  // One transaction on the store, resolved (with what ``work`` asked for) once it is written.
  function store(mode, work) {
    return db().then((open) => new Promise((resolve, reject) => {
      const tx = open.transaction(STORE, mode);
      const asked = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(asked && asked.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    }));
  }

  const read = () => store("readonly", (saves) => saves.getAll())
    .then((all) => { entries = all.sort((a, b) => a.seq - b.seq); return entries; });
  const waiting = () => entries.filter((entry) => !entry.refused);
  const put = (entry) => store("readwrite", (saves) => saves.put(entry));
  const drop = (key) => store("readwrite", (saves) => saves.delete(key));

  // What a form says, as the page shows it: each field's label and value ("Ann's bid", "2").
  function said(form) {
    const parts = [];
    for (const field of form.elements) {
      if (!field.name || ["hidden", "submit", "button"].includes(field.type)) continue;
      if (["radio", "checkbox"].includes(field.type) && !field.checked) continue;
      const group = field.closest("[role=radiogroup]");
      const label = (group && group.getAttribute("aria-label")) || field.getAttribute("aria-label")
        || (field.labels && field.labels[0] ? field.labels[0].textContent.trim() : field.name);
      let value = field.value;
      if (field.type === "radio") value = field.closest("label").textContent;
      else if (field.type === "checkbox") value = "✓";
      else if (field instanceof HTMLSelectElement) value = field.value && field.selectedOptions[0].text; // "?": none
      if (value.trim()) parts.push({ name: field.name, label, value: value.trim() });
    }
    return parts;
  }

  const keyOf = (fields) => (fields.find(([name]) => name === "idempotency_key") || [])[1];
  const formOf = (key) => {
    const field = [...document.querySelectorAll("input[name=idempotency_key]")].find((input) => input.value === key);
    return field ? field.form : null;
  };

  // A form whose save is kept: what was entered stays as it was kept (its fields cannot be
  // changed, nor the form sent twice), and it says so (with "Try again": send what waits now).
  function lock(form) {
    form.dataset.kept = "";
    for (const field of form.elements) {
      if (field.disabled) continue; // disabled by the page (the dealer's forbidden bid)
      field.disabled = true;
      field.dataset.locked = "";
    }
    form.querySelectorAll(".save-failed").forEach((note) => note.remove());
    const note = saveFailedNote(() => { wait = 1000; flush(); }); // app.js
    note.classList.add("kept-note");
    note.firstChild.textContent = `${words.kept_note} `;
    (form.querySelector(".save-bar") || form).appendChild(note);
  }

  function unlock(form) {
    delete form.dataset.kept;
    for (const field of form.elements) {
      if (!("locked" in field.dataset)) continue;
      field.disabled = false;
      delete field.dataset.locked;
    }
    form.querySelectorAll(".kept-note").forEach((note) => note.remove());
  }

  // The form of the page a kept save came from: the one with its key, or (the page loaded
  // again since) one that posts to the same address for the same step (its hidden fields).
  const sameForm = (entry) => formOf(entry.key) || [...document.querySelectorAll("form[data-inplace]")].find((form) =>
    form.action === entry.url && [...form.querySelectorAll("input[type=hidden]")].every((input) =>
      ["csrf_token", "idempotency_key"].includes(input.name)
      || entry.fields.some(([name, value]) => name === input.name && value === input.value)));

  // A form of the page whose save waits here: what it said, filled in again, and locked.
  function mark() {
    waiting().forEach((entry) => {
      const form = sameForm(entry);
      if (!form || "kept" in form.dataset) return;
      entry.fields.forEach(([name, value]) => {
        const field = form.elements.namedItem(name);
        if (!field || name === "csrf_token" || name === "idempotency_key") return;
        if (field.type === "checkbox") field.checked = true;
        else field.value = value; // a radio group checks the one with this value
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
      lock(form);
    });
  }

  // Keep a form's save (its request failed without an answer). False when this phone cannot.
  // ``how.offline``: checked by the phone's own rules (play_offline.js), which draws the next
  // step itself: the form is not locked.
  function keep(form, submitter, how = {}) {
    const fields = [...new FormData(form, submitter && submitter.name ? submitter : undefined)]
      .filter(([, value]) => typeof value === "string");
    const key = keyOf(fields);
    if (!key || !window.indexedDB) return Promise.resolve(false);
    // Its label: the game (its players), the hand, the button ("Oh Hell · Ann, Ben and Cy ·
    // Hand 3 of 13 · Save bids"): the list may show the saves of another game too.
    const game = document.querySelector("meta[name=description]");
    const head = document.querySelector("#now h1");
    const button = submitter || form.querySelector("[type=submit]");
    const entry = {
      key, seq: Date.now(), url: form.action, page: location.pathname, fields, said: said(form),
      label: [game && game.content, head && head.textContent, button && button.textContent]
        .filter(Boolean).map((text) => text.trim()).join(" · "),
    };
    return store("readwrite", (saves) => {
      const found = saves.get(key); // kept before (the same form): its place in the order stays
      found.onsuccess = () => saves.put(found.result ? { ...entry, seq: found.result.seq } : entry);
    }).then(read).then(() => {
      if (!how.offline) lock(form);
      show();
      later();
      return true;
    }, () => false);
  }

  // The list of what waits, at the top of the game page, with its count.
  function show() {
    let box = document.getElementById("outbox");
    if (!entries.length) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = Object.assign(document.createElement("details"), { id: "outbox" });
      box.classList.add("card", "outbox");
      const summary = document.createElement("summary");
      const said = summary.appendChild(document.createElement("span"));
      said.setAttribute("role", "status");
      box.append(summary, document.createElement("ol"));
    }
    if (box.parentNode !== main || main.firstChild !== box) main.prepend(box);
    const count = waiting().length;
    box.querySelector("summary [role=status]").textContent = Words.fill(words.kept[count === 1 ? 1 : 2], { count });
    if (entries.some((entry) => entry.refused)) box.open = true;
    box.querySelector("ol").replaceChildren(...entries.map((entry) => {
      const item = document.createElement("li");
      const text = (tag, className, textContent) => Object.assign(document.createElement(tag), { className, textContent });
      item.append(text("strong", "", entry.label), text("p", "said", entry.said.map((part) => `${part.label} ${part.value}`).join(" · ")));
      if (entry.refused) {
        const refused = text("p", "error", Words.fill(words.refused, { why: entry.refused }));
        refused.setAttribute("role", "alert");
        item.append(refused, ...(entry.differs || []).map((line) => text("p", "differs", line)));
      }
      if (entry.refused && entry.differs && entry.differs.length) {
        const mine = Object.assign(document.createElement("button"), { type: "button", className: "keep-mine", textContent: words.keep_mine });
        mine.addEventListener("click", () => {
          if (window.confirm(words.keep_mine_confirm)) keepMine(entry).catch(() => {});
        });
        item.append(mine);
      }
      const discard = Object.assign(document.createElement("button"), { type: "button", className: "discard", textContent: words.discard });
      discard.addEventListener("click", () => {
        if (!window.confirm(words.discard_confirm)) return;
        drop(entry.key).then(read).then(() => {
          const form = sameForm(entry);
          if (form) unlock(form);
          show();
        });
      });
      item.append(discard);
      return item;
    }));
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(flush, wait);
    wait = Math.min(wait * 2, 60000);
  }

  function swap(html) {
    document.querySelectorAll("dialog[open]").forEach((dialog) => dialog.close());
    main.innerHTML = html;
    document.dispatchEvent(new CustomEvent("sk:page", { detail: { outbox: true } }));
  }

  const here = (entry) => entry.page === location.pathname;
  const parse = (html) => new DOMParser().parseFromString(html, "text/html");
  const shown = (field) => {
    if (!field) return "";
    if (field.type === "radio" || field instanceof RadioNodeList) {
      const checked = [...(field.length ? field : [field])].find((each) => each.checked);
      return checked ? checked.closest("label").textContent.trim() : "";
    }
    if (field instanceof HTMLSelectElement) return field.value && field.selectedOptions[0].text.trim();
    return field.type === "checkbox" ? (field.checked ? "✓" : "") : field.value.trim();
  };

  // The hand a save was made for: its address's, or its form's hand number.
  const handOf = (entry) => (entry.url.match(/\/hands\/(\d+)/) || [])[1]
    || (entry.fields.find(([name]) => name === "number") || [])[1];
  const fieldOf = (entry, name) => (entry.fields.find(([each]) => each === name) || [])[1];

  // A hand saved by another phone first: each value where it and this phone's differ (the
  // hand's correction form holds what was saved).
  async function differences(entry) {
    const number = handOf(entry);
    if (!number) return [];
    try {
      const response = await fetch(`${entry.page}/hands/${number}/edit`, { headers: fragment, credentials: "same-origin" });
      const form = response.ok ? parse(await response.text()).querySelector("form") : null;
      if (!form) return [];
      return entry.said
        .map((part) => ({ ...part, saved: shown(form.elements.namedItem(part.name)) }))
        .filter((part) => part.saved !== part.value)
        .map((part) => Words.fill(words.differs, { field: part.label, yours: part.value, saved: part.saved || "–" }));
    } catch (error) {
      return [];
    }
  }

  // The server's answer to a save: the game's page or not; a warning on it (another phone saved
  // that hand first, say); refused: the page with a warning, or any other 4xx but those that
  // say "try again" (the first request with this key still being answered, too many
  // requests). Anything else but the game's page (a server error, the login page) is tried
  // again later.
  function outcome(response, html) {
    const page = html.includes("data-game-page");
    // A change of the table the server would not take in order (the game moved on): its
    // panel again, with the warning.
    const panel = response.url && /\/table\/changes$/.test(new URL(response.url).pathname);
    const warned = (page || panel) && html.includes("flash-warning");
    const status = response.status;
    const refused = warned || (status >= 400 && status < 500 && ![408, 409, 425, 429].includes(status));
    return { page, warned, refused };
  }

  const messagesOf = (html) => [...parse(html).querySelectorAll(".flash-warning, .form-errors .error, p.error")]
    .map((p) => p.textContent.trim());

  // The scorekeeper chooses this phone's version of a hand another phone saved first: the
  // server's own form for that hand (on its page, the bids of the hand in play; else the
  // hand's correction form), filled in with what this phone's save said, is sent. Saved, the
  // saves kept after it (made on this phone's version of the game) go on, each named on the
  // game's version as it now stands; refused, the entry stays with the server's message.
  async function keepMine(entry) {
    const number = handOf(entry);
    const address = `${entry.page}/hands/${number}`;
    const names = entry.said.map((part) => part.name);
    const takes = (form) => form && form.getAttribute("action") === address
      && names.every((name) => form.elements.namedItem(name));
    let form = here(entry) ? [...main.querySelectorAll("form")].find(takes) : null;
    if (!form) {
      const response = await fetch(`${address}/edit`, { headers: fragment, credentials: "same-origin" });
      form = response.ok ? [...parse(await response.text()).querySelectorAll("form")].find(takes) : null;
    }
    if (!form) {
      location.assign(`${address}/edit`); // the hand's correction page: entered there by hand
      return;
    }
    for (const name of names) {
      const field = form.elements.namedItem(name);
      if (field.type === "checkbox") field.checked = true;
      else field.value = fieldOf(entry, name); // a radio group checks the one with this value
    }
    const key = form.querySelector("input[name=idempotency_key]");
    if (key) key.value = freshKey(); // app.js
    const body = new URLSearchParams([...new FormData(form)].filter(([, value]) => typeof value === "string"));
    let response;
    let html;
    try {
      response = await fetch(address, { method: "POST", body, headers: fragment, credentials: "same-origin", signal: patience() }); // app.js
      html = await response.text();
    } catch (error) {
      return; // no answer: the entry stays, the choice can be made again
    }
    const { page, refused } = outcome(response, html);
    if (page && here(entry)) swap(html);
    if (refused || !page || !response.ok) {
      entry.refused = messagesOf(html).join(" ") || String(response.status);
      await put(entry).then(read).then(show);
      return;
    }
    const shown = parse(html).querySelector("[data-game-page][data-version]");
    const from = Number(fieldOf(entry, "based_on"));
    await drop(entry.key);
    for (const later of (await read()).filter((each) => each.page === entry.page && each.seq > entry.seq)) {
      const field = later.fields.find(([name]) => name === "based_on");
      if (!field || !shown || Number.isNaN(from)) continue;
      field[1] = String(Number(shown.dataset.version) + Number(field[1]) - from - 1);
      await put(later);
    }
    await read();
    show();
    wait = 1000;
    flush();
  }

  // Take back the last save waiting for ``page`` when ``test`` takes its address (a change of
  // the table undone on the phone before it was ever sent). True when one was taken back.
  async function cancel(page, test) {
    const last = (await read()).filter((each) => each.page === page && !each.refused).pop();
    if (!last || !test(last.url)) return false;
    await drop(last.key).then(read);
    show();
    return true;
  }

  // Send what waits, in order; stop at the first that gets no answer (and try again later).
  // A game with a refused save waits for the scorekeeper: its later saves are not sent (each
  // was made after the refused one, on the phone's version of the game).
  async function send() {
    const all = await read();
    const held = new Set(all.filter((each) => each.refused).map((each) => each.page));
    for (const entry of all.filter((each) => !each.refused)) {
      if (held.has(entry.page)) continue;
      const token = document.querySelector("input[name=csrf_token]"); // this session's
      const body = new URLSearchParams(entry.fields.map(([name, value]) => [name, name === "csrf_token" && token ? token.value : value]));
      let response;
      let html;
      try {
        response = await fetch(entry.url, { method: "POST", body, headers: fragment, credentials: "same-origin", signal: patience() }); // app.js
        html = await response.text();
      } catch (error) {
        return later();
      }
      const { page, warned, refused } = outcome(response, html);
      if (!refused && !(page && response.ok)) return later();
      wait = 1000;
      if (!refused) {
        await drop(entry.key).then(read);
        if (here(entry)) swap(html);
        continue;
      }
      const messages = messagesOf(html);
      if (here(entry) && page) swap(html); // the game as it stands, the entry back in its form
      const after = all.some((each) => each.page === entry.page && each.seq > entry.seq);
      if (here(entry) && page && !warned && !after) {
        await drop(entry.key).then(read); // the form holds it again, each message beside its value
        continue;
      }
      entry.refused = messages.join(" ") || String(response.status);
      entry.differs = warned ? await differences(entry) : [];
      await put(entry);
      held.add(entry.page);
    }
    return null;
  }

  // Send what waits now (once at a time, across this phone's tabs too); asked again while it
  // sends (a save kept meanwhile), it goes over the list once more after.
  function flush() {
    clearTimeout(timer);
    if (sending) {
      again = true;
      return sending;
    }
    again = false;
    const run = () => send().catch(later).then(read).then(show);
    sending = (navigator.locks ? navigator.locks.request("sk-outbox", run) : run())
      .finally(() => {
        sending = null;
        if (again) flush();
      });
    return sending;
  }

  window.addEventListener("online", () => { wait = 1000; flush(); });
  // Offline play (play_offline.js: its switch, then the rules), nothing of it in the first load.
  document.head.append(Object.assign(document.createElement("script"), { src: "/offline/play.js", type: "module" }));
  document.addEventListener("sk:page", (event) => {
    if (!(event.detail && event.detail.offline)) mark(); // a step drawn offline waits for none
    show();
  });
  read().then(() => {
    mark();
    show();
    if (waiting().length) flush();
  }).catch(() => {});

  return {
    keep, flush, cancel, entries: () => read(),
    get count() { return waiting().length; },
  };
})();
