// Spades: a phone playing offline (play_offline.js) put in a hand's head made ahead by the
// server: each team's distance to the target and the bags it carries are written in as the
// phone's rules have them (the totals themselves are written by play_offline.js); and the
// blind nil boxes of its bids form (all made, some hidden) shown for the teams the phone's
// totals allow, hidden (and not ticked) for the others.
"use strict";

(function () {
  function blindNil(state) {
    const allowed = state && state.next && state.next.blind_nil_allowed;
    if (!allowed) return;
    document.querySelectorAll("#main form[data-bids-form] .blind-nil[data-side]").forEach((label) => {
      label.hidden = !allowed[label.dataset.side];
      if (label.hidden) label.querySelector("input").checked = false;
    });
  }

  function offline(event) {
    const state = event.detail.state;
    blindNil(state);
    const list = document.querySelector("#now .to-target[data-words]");
    if (!state || !state.next || !state.next.bags || !list) return;
    const words = Words.of(list);
    const target = Number(list.dataset.target);
    list.querySelectorAll("li[data-side]").forEach((item) => {
      const side = item.dataset.side;
      const bags = state.next.bags[side];
      const note = item.querySelector(".muted");
      if (bags === undefined || !(side in state.totals) || !note) return;
      const left = target - state.totals[side];
      const said = left > 0 ? (words.to_go || {})[bags] : (words.there || {})[bags];
      if (said) note.textContent = Words.fill(said, { left });
    });
  }

  document.addEventListener("sk:offline", offline);
})();
