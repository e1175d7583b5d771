// Oklahoma Gin round form: the knock limit as soon as the upcard is tapped, the fields a result
// needs, and the round's score before it is saved. The server checks everything again: the
// form works without this file.
"use strict";

function ginForms() {
  document.querySelectorAll("form[data-gin-form]").forEach((form) => {
    const ginBonus = Number(form.dataset.ginBonus);
    const undercutBonus = Number(form.dataset.undercutBonus);
    const spadeDouble = form.dataset.spadeDouble === "on";
    const aceNeedsGin = form.dataset.aceGin === "on";
    const limitOut = form.querySelector("[data-knock-limit]");
    const scoreOut = form.querySelector("[data-round-score]");
    const knockPart = form.querySelector("[data-knock-part]");
    const mine = form.querySelector('input[name="knocker_deadwood"]');
    const theirs = form.querySelector('input[name="opponent_deadwood"]');
    const mineField = mine.closest(".field");
    const mineLabel = form.querySelector("[data-label-knocker]");
    const theirsLabel = form.querySelector("[data-label-opponent]");
    const knockChip = form.querySelector('input[name="result"][value="knock"]');
    const names = [...form.querySelectorAll('input[name="knocker"]')].map((input) => input.dataset.name);

    const checked = (name) => form.querySelector(`input[name="${name}"]:checked`);
    const number = (input) => {
      const text = input.value.trim();
      return /^\d+$/.test(text) ? Number(text) : null;
    };

    const update = () => {
      const upcard = checked("upcard");
      const suit = checked("upcard_suit");
      const rank = upcard ? upcard.value : null;
      const limit = upcard ? Number(upcard.dataset.limit) : null;
      const onlyGin = aceNeedsGin && rank === "A";
      const doubled = spadeDouble && suit !== null && suit.value === "spades";

      limitOut.classList.toggle("set", rank !== null);
      if (rank === null) {
        limitOut.textContent = "Tap the upcard: it sets the knock limit.";
      } else {
        limitOut.textContent = (onlyGin ? "Ace turned up: only gin ends this round" : `Knock with ${limit} or less`)
          + (doubled ? " · ♠ scores double" : "");
      }

      // An ace with "ace needs gin": a knock is not possible this round.
      knockChip.disabled = onlyGin;
      knockChip.closest(".chip").classList.toggle("forbidden", onlyGin);
      if (onlyGin && knockChip.checked) knockChip.checked = false;

      const result = checked("result") ? checked("result").value : null;
      const isDraw = result === "draw";
      const isGin = result === "gin";
      knockPart.hidden = isDraw;
      const keepMine = mineField.classList.contains("has-error");
      mineField.hidden = isGin && !keepMine;
      mine.disabled = isGin && !keepMine;

      const seat = checked("knocker");
      const knocker = seat ? names[Number(seat.value)] : null;
      const opponent = seat ? names[1 - Number(seat.value)] : null;
      mineLabel.textContent = knocker ? `${knocker}'s deadwood (knocked)` : "Knocker's deadwood";
      theirsLabel.textContent = opponent ? `${opponent}'s deadwood` : "Opponent's deadwood";

      // The round's score, as the rules will work it out.
      let text = "";
      let bad = false;
      if (isDraw) {
        text = "Draw: no score, the same dealer deals again.";
      } else if (result && knocker) {
        const kd = isGin ? 0 : number(mine);
        const od = number(theirs);
        const times = doubled ? 2 : 1;
        const twice = doubled ? " (doubled)" : "";
        if (kd !== null && od !== null && od <= 98 && kd <= 98) {
          if (kd === 0) {
            text = `Gin! ${knocker} scores ${(od + ginBonus) * times}${twice}.`;
          } else if (onlyGin) {
            text = "An ace was turned up: only gin can end this round.";
            bad = true;
          } else if (limit !== null && kd > limit) {
            text = `Knock with ${limit} or less: ${knocker} has ${kd}.`;
            bad = true;
          } else if (kd < od) {
            text = `${knocker} scores ${(od - kd) * times}${twice}.`;
          } else {
            text = `Undercut! ${opponent} scores ${(undercutBonus + kd - od) * times}${twice}.`;
          }
        }
      }
      scoreOut.textContent = text;
      scoreOut.classList.toggle("bad", bad);
    };
    form.addEventListener("change", update);
    form.addEventListener("input", update);
    update();
  });
}

document.addEventListener("DOMContentLoaded", ginForms);
