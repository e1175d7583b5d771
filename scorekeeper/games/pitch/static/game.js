// Auction Pitch: offer only legal calls as the auction goes round (the passes after a pitch
// of 4 filled in, saying so), the status line kept right, the quick form brought into view,
// the one-trump shortcut, and what the points tapped make of the hand.
// The server checks everything again; without this file the form still works.
"use strict";

(function () {
  const TOP = 4;

  // What a player may call, given the high bid so far (0 = everyone passed). Mirrors the
  // rules: a bid must beat the high bid; the dealer (when stealing is allowed) may take it by
  // equalling 1 to 3, must bid 2 or more when everyone passed, and nothing beats 4.
  function legalCalls(high, isDealer, minBid, maySteal) {
    const calls = new Set();
    if (high === TOP) { calls.add("pass"); return calls; }
    if (isDealer && high === 0) {
      for (let bid = Math.max(minBid, 2); bid <= TOP; bid += 1) calls.add(String(bid));
      return calls;
    }
    calls.add("pass");
    for (let bid = minBid; bid <= TOP; bid += 1) {
      if (bid > high || (isDealer && maySteal && bid === high)) calls.add(String(bid));
    }
    return calls;
  }

  function auction(box) {
    const minBid = Number(box.dataset.minBid);
    const dealer = box.dataset.dealer;
    const maySteal = box.dataset.steal !== "off";
    const rows = [...box.querySelectorAll("[data-seat]")];
    const form = box.closest("form");
    const note = form.querySelector("[data-auction-note]");
    const status = form.querySelector("[data-status]");
    const words = Words.of(box);
    const update = () => {
      let high = 0;
      let pitcher = null;
      let stolen = false;
      let open = true;
      let next = null;
      let left = 0;
      let filled = 0;
      rows.forEach((row) => {
        const isDealer = row.dataset.seat === dealer;
        const allowed = open ? legalCalls(high, isDealer, minBid, maySteal) : new Set();
        let chosen = null;
        row.classList.toggle("later", !open);
        row.querySelectorAll("input[type=radio]").forEach((input) => {
          const ok = open && allowed.has(input.value);
          // A pass filled in after a 4 is taken back when the 4 is.
          if (input.dataset.auto && high !== TOP) { input.checked = false; delete input.dataset.auto; }
          // After a pitch of 4 the only call is a pass: filled in (the note says so).
          if (open && high === TOP && input.value === "pass" && !input.checked) {
            input.checked = true;
            input.dataset.auto = "1";
          }
          input.disabled = !ok && !input.checked;
          // Struck out: not allowed for this player; rows not yet reached are only dimmed.
          input.closest(".chip").classList.toggle("forbidden", open && !ok);
          if (input.checked) chosen = input.value;
          if (input.checked && input.dataset.auto) filled += 1;
        });
        const illegal = chosen !== null && !allowed.has(chosen);
        row.classList.toggle("has-error", illegal);
        row.classList.toggle("waiting", open && chosen === null);
        if (chosen === null || illegal) {
          if (open) next = row.dataset.player;
          open = false;
          left += 1;
          return;
        }
        if (chosen !== "pass") {
          const bid = Number(chosen);
          stolen = isDealer && bid === high;
          high = bid; pitcher = row.dataset.player;
        }
      });
      const { fill } = Words;
      let text;
      if (pitcher && open) {
        text = fill(stolen ? words.steals : words.pitches, { name: pitcher, bid: high });
        if (filled) text = fill(words.filled, { said: text });
      } else if (pitcher) {
        text = fill(words.high, { name: pitcher, bid: high, next });
      } else if (next && next !== rows[0].dataset.player) {
        text = fill(words.passed, { name: next });
      } else {
        text = fill(words.first, { name: next });
      }
      if (!words.first) return;
      if (status) status.textContent = text;
      if (note) note.textContent = pitcher && open ? text : "";
    };
    box.addEventListener("change", update);
    update();
  }

  // "One trump only": High and Low (and Jack, if that trump was the jack) are the pitcher's,
  // so tick them; the status line says what the points tapped make of the hand. The pitcher
  // and the bid are read from the form each time (a phone playing offline writes them in).
  function pointsForm(form) {
    const box = form.querySelector("[data-single-trump]");
    const jack = form.querySelector("[data-lone-jack]");
    const status = form.querySelector("[data-status]");
    const give = (keys) => keys.forEach((key) => {
      const input = form.querySelector(`input[name="${key}"][value="${form.dataset.pitcher}"]`);
      if (input) input.checked = true;
    });
    if (box) {
      box.addEventListener("change", () => {
        if (box.checked) give(["high", "low"]);
        else if (jack) jack.checked = false;
      });
    }
    if (jack) {
      jack.addEventListener("change", () => {
        if (!jack.checked) return;
        if (box) box.checked = true;
        give(["high", "low", "jack"]);
      });
    }
    if (!status || !form.dataset.sides || !form.dataset.words) return;
    const sideOf = form.dataset.sides.split(",").map(Number);
    const sideNames = form.dataset.sideNames.split("|");
    const smudge = form.dataset.smudge === "on";
    const words = Words.of(form);
    const { fill } = Words;
    if (!("lead" in status.dataset)) status.dataset.lead = status.textContent;
    const update = () => {
      const mine = sideOf[Number(form.dataset.pitcher)];
      const bid = Number(form.dataset.bid);
      const won = sideNames.map(() => 0);
      let placed = 0;
      ["high", "low", "jack", "game"].forEach((key) => {
        const input = form.querySelector(`input[name="${key}"]:checked`);
        if (!input) return;
        placed += 1;
        if (/^\d+$/.test(input.value)) won[sideOf[Number(input.value)]] += 1;
      });
      const name = sideNames[mine];
      if (placed === 0) { status.textContent = status.dataset.lead; status.classList.remove("bad"); return; }
      const all = smudge ? won.findIndex((count) => count === 4) : -1;
      let text;
      if (placed < 4) {
        text = fill(words.count, { name, won: won[mine], left: 4 - placed, bid });
      } else if (all >= 0) {
        text = fill(words.smudge, { name: sideNames[all] });
      } else if (won[mine] >= bid) {
        text = fill(words.made, { name, won: won[mine], bid });
      } else {
        text = fill(words.set, { name, won: won[mine], bid });
      }
      status.textContent = text;
      status.classList.toggle("bad", placed === 4 && won[mine] < bid && all < 0);
    };
    form.addEventListener("change", update);
    update();
  }

  // A phone playing offline (play_offline.js) put in a points form made ahead by the server
  // (from an auction of its own): the pitcher and the bid of the hand in play are written in,
  // as the phone's rules have them: the hidden pitcher (the one-trump shortcut gives them
  // High and Low), the status line, the shortcut's label, the pitching side, the hand's head.
  function offline(event) {
    const hand = event.detail.hand;
    const info = hand && hand.status !== "scored" ? hand.info : null;
    const form = document.querySelector("form[data-points-form]");
    if (!info || !info.pitcher || !form) return;
    const seat = (form.dataset.seatNames || "").split("|").indexOf(info.pitcher);
    if (seat < 0) return;
    const words = Words.of(form);
    const { fill } = Words;
    const values = { name: info.pitcher_side, pitcher: info.pitcher, bid: info.bid };
    form.dataset.pitcher = String(seat);
    form.dataset.bid = String(info.bid);
    const hidden = form.querySelector('input[name="pitcher_seat"]');
    if (hidden) hidden.value = String(seat);
    const single = form.querySelector("[data-single-trump] + span");
    if (single && words.single) single.textContent = fill(words.single, values);
    form.querySelectorAll(".score-strip li").forEach((item) => {
      const who = item.querySelector(".who");
      item.classList.toggle("pitching", Boolean(who) && who.textContent === info.pitcher_side);
    });
    const status = form.querySelector("[data-status]");
    if (status && words.lead) status.dataset.lead = fill(words.lead, values);
    const head = document.getElementById("now");
    const pill = head && head.querySelector(".pill.first");
    if (pill && words.pitched) pill.textContent = fill(info.stolen ? words.stole : words.pitched, values);
    const tile = head && head.querySelector(".tile strong");
    if (tile) tile.textContent = Words.number(info.bid);
    form.dispatchEvent(new Event("change"));
  }

  // "Just record the pitcher and the bid" opens below the auction: bring it into view.
  function quickForm(details) {
    details.addEventListener("toggle", () => {
      if (details.open) details.scrollIntoView({ block: "start" });
    });
  }

  function setUp() {
    document.querySelectorAll("[data-auction]").forEach(auction);
    document.querySelectorAll("form[data-points-form]").forEach(pointsForm);
    document.querySelectorAll("details[data-quick]").forEach(quickForm);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("sk:page", setUp);
  document.addEventListener("sk:offline", offline);
})();
