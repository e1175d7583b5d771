// Scorekeeper: correct a hand in place from the score sheet. Tapping a hand's number opens its
// correction form in a dialog over the sheet (the page the link opens without this script,
// asked for its main part); saving posts it as that page would, and the game's page (sheet,
// totals and all) is updated in place: no new page, the address unchanged, the message that it
// was saved beside the sheet. A refusal keeps the dialog open: the message beside the field and
// what was typed. Without this file the link opens the correction page, as it always did.
"use strict";

(function () {
  if (!window.fetch || !window.FormData || !window.HTMLDialogElement) return;
  const asFragment = { "X-Fragment": "1" };
  let dialog = null;
  let opened = null; // the edit address of the hand in the dialog

  function theDialog() {
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.className = "correct-dialog";
    // A tap on the backdrop (outside the box) closes it, as Escape does.
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
    document.body.appendChild(dialog);
    return dialog;
  }

  // The correction form (or the form again, refused) in the dialog; the game's script wires it
  // as it wires a form saved in place.
  function show(html) {
    const box = theDialog();
    box.innerHTML = html;
    const heading = box.querySelector("h1");
    if (heading) {
      heading.id = "correct-title";
      box.setAttribute("aria-labelledby", "correct-title");
    }
    if (!box.open) box.showModal();
    document.dispatchEvent(new CustomEvent("sk:page", { detail: { dialog: true } }));
    const problem = box.querySelector(".form-errors:not([hidden]), .has-error, p.error");
    if (problem) problem.scrollIntoView({ block: "center" });
  }

  // Saved: the game's main part as the server answered it, the dialog closed, the corrected
  // hand's row in view with the page's message ("Hand 2 corrected") above the sheet.
  function swap(html) {
    const main = document.getElementById("main");
    main.innerHTML = html;
    dialog.close();
    document.dispatchEvent(new CustomEvent("sk:page", { detail: {} }));
    const card = main.querySelector(".sheet-card");
    const flashes = main.querySelector(".flashes");
    if (card && flashes) card.querySelector("h2").after(flashes);
    const link = opened && main.querySelector(`.sheet a.hand-link[href="${CSS.escape(opened)}"]`);
    const row = link && link.closest("tr");
    if (row) {
      row.classList.add("just-corrected");
      link.focus({ preventScroll: true });
    }
    const target = row || card;
    if (target) target.scrollIntoView({ block: "center" });
  }

  function save(form, submitter) {
    form.querySelectorAll(".save-failed").forEach((note) => note.remove());
    const restore = busyButton(submitter || form.querySelector('button[type="submit"]')); // app.js
    fetch(form.action, { method: "POST", body: encoded(new FormData(form)), headers: asFragment, credentials: "same-origin", signal: patience() })
      .then((response) => response.text().then((html) => ({ response, html })))
      .then(({ response, html }) => {
        // Saved, or another phone changed the game first: the game's page, with its message.
        if (html.includes("data-game-page")) return swap(html);
        // Refused: the correction form again, with the message and what was typed.
        if (!response.ok && html.includes("<form")) return show(html);
        throw new Error(String(response.status));
      })
      .catch((error) => {
        restore();
        keptOrNote(error, form, submitter, () => form.appendChild(saveFailedNote(() => save(form, submitter)))); // app.js
      });
  }

  function open(link) {
    const href = link.getAttribute("href");
    fetch(href, { headers: asFragment, credentials: "same-origin" })
      .then((response) => (response.ok ? response.text() : Promise.reject(response)))
      .then((html) => {
        if (!html.includes("<form")) throw new Error("no_form");
        opened = href;
        show(html);
      })
      .catch(() => { window.location.href = href; }); // the correction page, as without script
  }

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = event.target.closest("a[href]");
    if (!link) return;
    if (dialog && dialog.contains(link)) {
      // "Cancel" goes back to the game: here it only closes the dialog.
      if (new URL(link.href).pathname === window.location.pathname) {
        event.preventDefault();
        dialog.close();
      }
      return;
    }
    // Only on the game's own page (the sheet in history opens the correction page).
    if (!link.matches(".sheet a.hand-link") || !document.querySelector("#main [data-game-page]")) return;
    event.preventDefault();
    open(link);
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!dialog || !dialog.contains(form) || event.defaultPrevented) return;
    event.preventDefault();
    save(form, event.submitter);
  });
})();
