// Oh Hell: live bid and trick totals, and the dealer's forbidden bid under the hook.
// The page works without this file.
"use strict";

function checkedValue(form, name) {
  const input = form.querySelector(`input[name="${name}"]:checked`);
  return input ? Number(input.value) : null;
}

// Oh Hell bids: total against the cards, and the dealer's forbidden value under the hook.
function bidsForms() {
  document.querySelectorAll("form[data-bids-form]").forEach((form) => {
    const cards = Number(form.dataset.cards);
    const hook = form.dataset.hook === "on";
    const dealerSeat = form.dataset.dealer;
    const out = form.querySelector("[data-bid-total]");
    const rows = [...form.querySelectorAll("fieldset[data-seat]")];
    const update = () => {
      let total = 0;
      let missing = 0;
      let othersMissing = 0;
      let othersTotal = 0;
      rows.forEach((row) => {
        const value = checkedValue(form, `bid-${row.dataset.seat}`);
        const isDealer = row.dataset.seat === dealerSeat;
        if (value === null) {
          missing += 1;
          if (!isDealer) othersMissing += 1;
        } else {
          total += value;
          if (!isDealer) othersTotal += value;
        }
      });
      if (out) {
        const diff = total - cards;
        const word = diff === 0 ? "even" : diff > 0 ? `${diff} over` : `${-diff} under`;
        out.textContent = missing
          ? `Bids so far: ${total} for ${cards} ${cards === 1 ? "card" : "cards"} (${missing} to go)`
          : `Bids total ${total} for ${cards} ${cards === 1 ? "card" : "cards"}: ${word}`;
        out.classList.toggle("bad", hook && !missing && diff === 0);
      }
      if (!hook) return;
      const dealerRow = rows.find((row) => row.dataset.seat === dealerSeat);
      if (!dealerRow) return;
      const forbidden = othersMissing ? null : cards - othersTotal;
      dealerRow.querySelectorAll(".chip").forEach((chip) => {
        const input = chip.querySelector("input");
        const isForbidden = forbidden !== null && Number(input.value) === forbidden;
        chip.classList.toggle("forbidden", isForbidden);
        input.disabled = isForbidden;
        if (isForbidden && input.checked) input.checked = false;
      });
      const note = dealerRow.querySelector("[data-forbidden-note]");
      if (note && forbidden !== null && forbidden >= 0 && forbidden <= cards) {
        note.textContent = `${dealerRow.querySelector("legend").firstChild.textContent.trim()} may not bid ${forbidden}.`;
      }
    };
    form.addEventListener("change", update);
    update();
  });
}

// Oh Hell tricks: how many are entered against the cards.
function tricksForms() {
  document.querySelectorAll("form[data-tricks-form]").forEach((form) => {
    const cards = Number(form.dataset.cards);
    const out = form.querySelector("[data-trick-total]");
    const update = () => {
      let total = 0;
      let missing = 0;
      form.querySelectorAll(".chips").forEach((group) => {
        const input = group.querySelector("input:checked");
        if (input) total += Number(input.value); else missing += 1;
      });
      out.textContent = `Tricks: ${total} of ${cards}` + (missing ? ` (${missing} to go)` : "");
      out.classList.toggle("bad", total > cards || (!missing && total !== cards));
    };
    form.addEventListener("change", update);
    update();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  bidsForms();
  tricksForms();
});
