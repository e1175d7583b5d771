// Scorekeeper: the new-game page's enhancements (templates/games/new.html), loaded on that page
// only, after words.js and app.js. The page works without this file.
"use strict";

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
    // Tests (and nothing else) wait for this before tapping names: a tap before this script
    // ran only focuses the seat's list.
    form.dataset.ready = "";
  });
}

document.addEventListener("DOMContentLoaded", () => {
  presets();
  steppers();
  optionEcho();
  seatPicker();
});
