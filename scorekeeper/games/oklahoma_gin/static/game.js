// Oklahoma Gin round form: the knock limit as soon as the upcard is tapped, the fields a result
// needs, and in the status line what the round will score, saying what is still missing or
// what the server will refuse (never a score it then refuses). The server checks everything
// again: the form works without this file.
"use strict";

(function () {
  const MAX_DEADWOOD = 98;

  function ginForm(form) {
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
    const hasSuit = Boolean(form.querySelector('input[name="upcard_suit"]'));

    const checked = (name) => form.querySelector(`input[name="${name}"]:checked`);
    // A deadwood count: null when blank, NaN when it is not a whole number.
    const number = (input) => {
      const text = input.value.trim();
      if (text === "") return null;
      return /^\d+$/.test(text) ? Number(text) : NaN;
    };

    // What the round scores, or what is missing or wrong: [text, bad].
    const verdict = (state) => {
      const { rank, limit, onlyGin, doubled, result, knocker, opponent, kd, od } = state;
      if (rank === null) return [result ? "Tap the upcard: it sets the knock limit." : "Tap the upcard, then how the round ended.", false];
      const limitText = onlyGin ? "Ace turned up: only gin ends this round" : `Knock with ${limit} or less`;
      if (spadeDouble && hasSuit && !state.suit) return [`${limitText} · tap the upcard's suit`, false];
      if (result === null) return [`${limitText} · tap how the round ended`, false];
      if (result === "draw") return ["Draw: no score, the same dealer deals again.", false];
      if (!knocker) return [`${limitText} · tap who ${result === "gin" ? "went gin" : "knocked"}`, false];
      if (Number.isNaN(kd) || Number.isNaN(od) || kd > MAX_DEADWOOD || od > MAX_DEADWOOD) {
        return [`A deadwood count is a whole number from 0 to ${MAX_DEADWOOD}.`, true];
      }
      if (result === "gin" && kd !== null && kd > 0) {
        return [`Gin means no deadwood, but ${knocker} has ${kd}. Enter it as a knock instead.`, true];
      }
      if (result === "knock" && kd === null) return [`Enter ${knocker}'s deadwood.`, false];
      if (od === null) return [`Enter ${opponent}'s deadwood.`, false];
      const times = doubled ? 2 : 1;
      const twice = doubled ? " (doubled)" : "";
      if (result === "gin" || kd === 0) return [`Gin! ${knocker} scores ${(od + ginBonus) * times}${twice}.`, false];
      if (onlyGin) return ["An ace was turned up: only gin can end this round.", true];
      if (kd > limit) return [`Knock with ${limit} or less: ${knocker} has ${kd}.`, true];
      if (kd < od) return [`${knocker} knocked and scores ${(od - kd) * times}${twice}.`, false];
      return [`${knocker} knocked; ${opponent} undercut: ${opponent} scores ${(undercutBonus + kd - od) * times}${twice}.`, false];
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

      // An ace with "ace needs gin": a knock is not possible this round (a knock already
      // tapped stays, and the status line says why it cannot be saved).
      knockChip.disabled = onlyGin && !knockChip.checked;
      knockChip.closest(".chip").classList.toggle("forbidden", onlyGin);

      const result = checked("result") ? checked("result").value : null;
      const isGin = result === "gin";
      knockPart.hidden = result === "draw";
      // Gin needs no deadwood of the knocker's: the field goes, unless something is typed
      // in it (or the server refused it), which is then kept and checked.
      const keepMine = mineField.classList.contains("has-error") || mine.value.trim() !== "" && mine.value.trim() !== "0";
      mineField.hidden = isGin && !keepMine;
      mine.disabled = isGin && !keepMine;

      const seat = checked("knocker");
      const knocker = seat ? names[Number(seat.value)] : null;
      const opponent = seat ? names[1 - Number(seat.value)] : null;
      mineLabel.textContent = knocker ? `${knocker}'s deadwood (knocked)` : "Knocker's deadwood";
      theirsLabel.textContent = opponent ? `${opponent}'s deadwood` : "Opponent's deadwood";

      const kd = isGin && mine.disabled ? 0 : number(mine);
      const [text, bad] = verdict({
        rank, limit, onlyGin, doubled, result, knocker, opponent, kd, od: number(theirs), suit,
      });
      scoreOut.textContent = text;
      scoreOut.classList.toggle("bad", bad);
    };
    form.addEventListener("change", update);
    form.addEventListener("input", update);
    update();
  }

  function setUp() {
    document.querySelectorAll("form[data-gin-form]").forEach(ginForm);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("sk:page", setUp);
})();
