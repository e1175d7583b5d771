// The bid-then-take-tricks games (Oh Hell, Wizard, Spades): the status line kept right as bids
// and tricks are tapped, and the dealer's forbidden bid under the hook. The pages work without
// this file (the server says the same).
"use strict";

(function () {
  // The form's words (static/js/words.js; a form without them keeps the server's words).
  const { fill } = Words;
  const wordsOf = (form) => {
    const words = Words.of(form);
    return Object.keys(words).length ? words : null;
  };

  function checked(form, name) {
    const input = form.querySelector(`input[name="${name}"]:checked`);
    return input ? Number(input.value) : null;
  }

  // Bids: their total against the cards, who is still to bid, and (with the hook) the one
  // bid the dealer may not make once every other bid is in. A value already tapped is never
  // changed by the script: if it becomes the forbidden one, the row says so.
  function bidsForm(form) {
    const cards = Number(form.dataset.cards);
    const hook = form.dataset.hook === "on";
    const dealerSeat = form.dataset.dealer;
    const status = form.querySelector("[data-status]");
    const rows = [...form.querySelectorAll("li.row[data-seat]")];
    const words = wordsOf(form);
    const update = () => {
      let total = 0;
      let missing = 0;
      let othersMissing = 0;
      let othersTotal = 0;
      let next = null;
      rows.forEach((row) => {
        const value = checked(form, `bid-${row.dataset.seat}`);
        const isDealer = row.dataset.seat === dealerSeat;
        if (value === null) {
          missing += 1;
          if (!isDealer) othersMissing += 1;
          if (next === null) next = row.dataset.player;
        } else {
          total += value;
          if (!isDealer) othersTotal += value;
        }
      });
      const forbidden = hook && !othersMissing ? cards - othersTotal : null;
      const dealerRow = rows.find((row) => row.dataset.seat === dealerSeat);
      const dealerBid = dealerRow ? checked(form, `bid-${dealerSeat}`) : null;
      const clash = forbidden !== null && dealerBid === forbidden;
      if (status && words) {
        const diff = total - cards;
        const balance = diff === 0 ? words.even : fill(diff > 0 ? words.over : words.under, { count: Math.abs(diff) });
        status.textContent = missing
          ? fill((next ? words.so_far_next : words.so_far)[missing], { sum: total, name: next || "" })
          : fill(words.total, { total, balance });
      }
      if (status) status.classList.toggle("bad", clash);
      if (!hook || !dealerRow) return;
      dealerRow.querySelectorAll('input[name^="bid-"]').forEach((input) => {
        const isForbidden = forbidden !== null && Number(input.value) === forbidden;
        input.closest(".chip").classList.toggle("forbidden", isForbidden);
        input.disabled = isForbidden && !input.checked;
      });
      const note = dealerRow.querySelector("[data-forbidden-note]");
      if (note && words && forbidden !== null && forbidden >= 0 && forbidden <= cards) {
        note.textContent = fill(clash ? words.clash : words.forbidden, { bid: forbidden });
        note.classList.add("known");
      }
      dealerRow.classList.toggle("has-error", clash);
    };
    form.addEventListener("change", update);
    update();
  }

  // Tricks: how many are placed against the cards, and each bid made or not as it stands.
  function tricksForm(form) {
    const cards = Number(form.dataset.cards);
    const status = form.querySelector("[data-status]");
    const rows = [...form.querySelectorAll("li.row[data-seat]")];
    const words = wordsOf(form);
    const update = () => {
      let total = 0;
      let missing = 0;
      rows.forEach((row) => {
        const value = checked(form, `trick-${row.dataset.seat}`);
        row.classList.toggle("on-bid", value !== null && value === Number(row.dataset.bid));
        if (value === null) missing += 1; else total += value;
      });
      if (!status) return;
      const rest = cards - total;
      if (words) {
        const said = missing ? words.to_go[missing] : rest > 0 ? words.short[rest] : words.done;
        status.textContent = fill(said || words.done, { taken: total, ...bidsOf(form, words) });
      }
      status.classList.toggle("bad", total > cards || (!missing && total !== cards));
    };
    form.addEventListener("change", update);
    update();
  }

  // The bids' total and how it compares with the cards ("2 over"), for the tricks' status.
  function bidsOf(form, words) {
    if ("contracts" in form.dataset) {
      // Two teams' contracts (Spades-like), said in place of the bids' total.
      const [first, second] = form.dataset.contracts.split(",").map(Number);
      return { first_bid: first, second_bid: second };
    }
    if (!("bidsTotal" in form.dataset)) return {};
    const total = Number(form.dataset.bidsTotal);
    const diff = total - Number(form.dataset.cards);
    const balance = diff === 0 ? words.even : fill(diff > 0 ? words.over : words.under, { count: Math.abs(diff) });
    return { total, balance };
  }

  // A phone playing offline (play_offline.js) put in a form made ahead by the server: the
  // bids of the hand in play are written in, as the phone's rules have them.
  function offline(event) {
    const hand = event.detail.hand;
    const bids = hand && hand.status !== "scored" && hand.input.bids;
    if (!bids) return;
    const blind = hand.input.blind_nil || [];
    const seats = {};
    document.querySelectorAll("form[data-tricks-form]").forEach((form) => {
      const words = wordsOf(form);
      const exact = form.dataset.exact !== "off";
      const contracts = [0, 0];
      form.querySelectorAll("li.row[data-player]").forEach((row) => {
        const bid = bids[row.dataset.player];
        if (bid === undefined) return;
        seats[row.dataset.seat] = bid;
        // A bid is made by taking exactly that many tricks (or, where only a nil is, a nil).
        if (exact || bid === 0) row.dataset.bid = bid; else delete row.dataset.bid;
        if ("team" in row.dataset) contracts[Number(row.dataset.team)] += bid;
        const pill = row.querySelector(".pill.bid");
        if (!pill || !words || !words.bid) return;
        const nil = bid === 0 && words.nil;
        pill.textContent = blind.includes(row.dataset.player) && words.blind ? words.blind : nil ? words.nil : fill(words.bid, { bid });
      });
      if ("contracts" in form.dataset) form.dataset.contracts = contracts.join(",");
      if ("bidsTotal" in form.dataset) form.dataset.bidsTotal = Object.values(bids).reduce((sum, bid) => sum + bid, 0);
      form.dispatchEvent(new Event("change")); // its status line again
    });
    document.querySelectorAll("form[data-change-bids]").forEach((form) => {
      Object.entries(seats).forEach(([seat, bid]) => {
        const chip = form.querySelector(`input[name="bid-${seat}"][value="${bid}"]`);
        if (chip) chip.checked = true;
      });
    });
  }

  function setUp() {
    document.querySelectorAll("form[data-bids-form]").forEach(bidsForm);
    document.querySelectorAll("form[data-tricks-form]").forEach(tricksForm);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("sk:page", setUp);
  document.addEventListener("sk:offline", offline);
})();
