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
    const words = Words.of(form);
    const { fill } = Words;

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
      if (rank === null) return [result ? words.tap_upcard : words.tap_upcard_result, false];
      const limitText = onlyGin ? words.ace : fill(words.limit, { limit });
      if (spadeDouble && hasSuit && !state.suit) return [fill(words.tap_suit, { limit: limitText }), false];
      if (result === null) return [fill(words.tap_result, { limit: limitText }), false];
      if (result === "draw") return [words.draw, false];
      if (!knocker) return [fill(result === "gin" ? words.tap_gin : words.tap_knocker, { limit: limitText }), false];
      if (Number.isNaN(kd) || Number.isNaN(od) || kd > MAX_DEADWOOD || od > MAX_DEADWOOD) {
        return [fill(words.count, { high: MAX_DEADWOOD }), true];
      }
      if (result === "gin" && kd !== null && kd > 0) {
        return [fill(words.gin_deadwood, { name: knocker, deadwood: kd }), true];
      }
      if (result === "knock" && kd === null) return [fill(words.enter, { name: knocker }), false];
      if (od === null) return [fill(words.enter, { name: opponent }), false];
      const times = doubled ? 2 : 1;
      if (result === "gin" || kd === 0) {
        return [fill(doubled ? words.gin_doubled : words.gin, { name: knocker, points: (od + ginBonus) * times }), false];
      }
      if (onlyGin) return [words.ace_gin, true];
      if (kd > limit) return [fill(words.over_limit, { limit, name: knocker, deadwood: kd }), true];
      if (kd < od) {
        return [fill(doubled ? words.knock_doubled : words.knock, { name: knocker, points: (od - kd) * times }), false];
      }
      const points = (undercutBonus + kd - od) * times;
      return [fill(doubled ? words.undercut_doubled : words.undercut, { name: knocker, other: opponent, points }), false];
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
        limitOut.textContent = words.tap_upcard;
      } else {
        limitOut.textContent = (onlyGin ? words.ace : fill(words.limit, { limit }))
          + (doubled ? ` · ${words.doubles}` : "");
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
      mineLabel.textContent = knocker ? fill(words.label_knocker, { name: knocker }) : words.label_knocker_none;
      theirsLabel.textContent = opponent ? fill(words.label_opponent, { name: opponent }) : words.label_opponent_none;

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

  // A phone playing offline (play_offline.js) put in a round's form made ahead by the server:
  // who deals it (the last round's winner, or the same dealer after a draw) and who plays
  // first, as the phone's rules have them, in the hand's head and the totals' strip.
  function offline(event) {
    const upcoming = event.detail.state && event.detail.state.next;
    const strip = document.querySelector("form[data-gin-form] .score-strip[data-words]");
    if (!upcoming || !upcoming.dealer || !strip) return;
    const words = Words.of(strip);
    const first = (upcoming.order || [])[0];
    const { fill } = Words;
    const dealer = document.querySelector("#now .pill.dealer");
    const leader = document.querySelector("#now .pill.first");
    if (dealer && words.deals) dealer.textContent = fill(words.deals, { name: upcoming.dealer });
    if (leader && words.first && first) leader.textContent = fill(words.first, { name: first });
    // The strip's "deals" pill moves to the dealer's total.
    const pill = strip.querySelector(".pill.dealer");
    const row = [...strip.querySelectorAll("li[data-player]")].find((item) => item.dataset.player === upcoming.dealer);
    if (pill && row && !row.contains(pill)) row.append(pill);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("sk:page", setUp);
  document.addEventListener("sk:offline", offline);
})();
