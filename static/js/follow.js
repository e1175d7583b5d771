// The scorekeeper's game page while the players' own phones take part (the game has a seat
// link): a change made elsewhere reloads the page, unless something was typed here.
"use strict";
(() => {
  const panel = document.querySelector("[data-game-page][data-events]");
  if (!panel || !window.EventSource) return;
  let typed = false;
  addEventListener("input", () => { typed = true; });
  new EventSource(panel.dataset.events).addEventListener("game", (event) => {
    const now = document.querySelector("[data-game-page]") || panel;  // a save in place renews it
    if (event.lastEventId === now.dataset.version) return;
    // The phone keeping the game for offline play hears of it too (its steps ahead).
    document.dispatchEvent(new CustomEvent("sk:moved", { detail: { version: Number(event.lastEventId) } }));
    if (!typed) location.reload();
  });
})();
