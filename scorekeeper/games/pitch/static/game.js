// Auction Pitch: offer only legal calls as the auction goes round, and the one-trump shortcut.
// The server checks everything again; without this file the form still works.
"use strict";

// What a player may call, given the high bid so far (0 = everyone passed). Mirrors the rules:
// a bid must beat the high bid; the dealer may steal by equalling 1 to 3, must bid 2 or more
// when everyone passed, and nothing beats 4.
function legalCalls(high, isDealer, minBid) {
  const calls = new Set();
  if (high === 4) { calls.add("pass"); return calls; }
  if (isDealer && high === 0) {
    for (let bid = Math.max(minBid, 2); bid <= 4; bid += 1) calls.add(String(bid));
    return calls;
  }
  calls.add("pass");
  for (let bid = minBid; bid <= 4; bid += 1) {
    if (bid > high || (isDealer && bid === high)) calls.add(String(bid));
  }
  return calls;
}

function auctions() {
  document.querySelectorAll("[data-auction]").forEach((box) => {
    const minBid = Number(box.dataset.minBid);
    const dealer = box.dataset.dealer;
    const rows = [...box.querySelectorAll("fieldset[data-seat]")];
    const note = box.querySelector("[data-auction-note]");
    const update = () => {
      let high = 0;
      let pitcher = null;
      let open = true;
      rows.forEach((row) => {
        const isDealer = row.dataset.seat === dealer;
        const allowed = legalCalls(high, isDealer, minBid);
        let chosen = null;
        row.classList.toggle("later", !open);
        row.querySelectorAll("input[type=radio]").forEach((input) => {
          const ok = open && allowed.has(input.value);
          input.disabled = !ok;
          // Struck out: not allowed for this player; rows not yet reached are only dimmed.
          input.closest(".chip").classList.toggle("forbidden", open && !ok);
          if (!ok && input.checked) input.checked = false;
          if (input.checked) chosen = input.value;
        });
        row.classList.toggle("waiting", open && chosen === null);
        if (chosen === null) { open = false; return; }
        if (chosen !== "pass") {
          const bid = Number(chosen);
          if (bid > high || isDealer) { high = bid; pitcher = row.dataset.player; }
        }
      });
      if (!note) return;
      if (pitcher && open) note.textContent = `${pitcher} pitches ${high}.`;
      else if (pitcher) note.textContent = `High bid so far: ${pitcher} ${high}.`;
      else note.textContent = "";
    };
    box.addEventListener("change", update);
    update();
  });
}

// "Only one trump was played": High and Low (and Jack, if that trump was the jack) are the
// pitcher's, so tick them.
function oneTrump() {
  document.querySelectorAll("form[data-points-form]").forEach((form) => {
    const box = form.querySelector("[data-single-trump]");
    if (!box) return;
    const jack = form.querySelector("[data-lone-jack]");
    const give = (keys) => keys.forEach((key) => {
      const input = form.querySelector(`input[name="${key}"][value="${form.dataset.pitcher}"]`);
      if (input) input.checked = true;
    });
    box.addEventListener("change", () => {
      if (box.checked) give(["high", "low"]);
      else if (jack) jack.checked = false;
    });
    if (jack) {
      jack.addEventListener("change", () => {
        if (!jack.checked) return;
        box.checked = true;
        give(["high", "low", "jack"]);
      });
    }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  auctions();
  oneTrump();
});
