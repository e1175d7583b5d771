// Scorekeeper: small progressive enhancements. Every page works without this file.
"use strict";

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

// Ask before a destructive action (undo a hand).
function confirmations() {
  document.querySelectorAll("form[data-confirm]").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
}

// New game: tap a name to give it the next free seat; tap again to take it away.
function seatPicker() {
  document.querySelectorAll("form[data-seat-picker]").forEach((form) => {
    const selects = [...form.querySelectorAll("select.seat-select")];
    const mark = () => selects.forEach((s) => s.closest("tr").classList.toggle("seated", s.value !== ""));
    form.querySelectorAll(".seat-name").forEach((label) => {
      label.addEventListener("click", (event) => {
        event.preventDefault();
        const select = form.querySelector(`#${CSS.escape(label.htmlFor)}`);
        if (select.value) {
          select.value = "";
        } else {
          const taken = new Set(selects.map((s) => s.value).filter(Boolean));
          for (let seat = 1; seat <= Number(form.dataset.maxSeats); seat += 1) {
            if (!taken.has(String(seat))) { select.value = String(seat); break; }
          }
        }
        mark();
      });
    });
    form.addEventListener("change", mark);
    mark();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  keepAwake();
  confirmations();
  seatPicker();
});
