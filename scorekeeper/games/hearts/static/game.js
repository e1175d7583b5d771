// Hearts: the status line adds up the points as they are typed, and a row's ☾ button enters a
// shot moon (26 for that player, 0 for the others). The page works without this file.
"use strict";

(function () {
  function heartsForm(form) {
    const status = form.querySelector("[data-status]");
    const inputs = [...form.querySelectorAll("input[data-points]")];
    const words = Words.of(form);
    const update = () => {
      if (!status || !words.some) return;
      let sum = 0;
      let given = 0;
      let moon = null;
      inputs.forEach((input) => {
        const text = input.value.trim();
        if (!/^\d+$/.test(text)) return;
        const value = Number(text);
        sum += value;
        given += 1;
        if (value === 26) moon = input.closest("[data-player]").dataset.player;
      });
      if (moon !== null && sum === 26) {
        status.textContent = Words.fill(words.moon, { name: moon });
      } else if (given) {
        status.textContent = Words.fill(words.some, { sum });
      } else {
        status.textContent = words.none;
      }
      status.classList.toggle("bad", sum > 26 || (given === inputs.length && sum !== 26));
    };
    inputs.forEach((input) => input.addEventListener("input", update));
    form.querySelectorAll("[data-moon]").forEach((button) => {
      button.addEventListener("click", () => {
        inputs.forEach((input) => {
          const seat = input.closest("[data-seat]").dataset.seat;
          input.value = seat === button.dataset.moon ? "26" : "0";
        });
        update();
      });
    });
    update();
  }

  function setUp() {
    document.querySelectorAll("form[data-hearts-form]").forEach(heartsForm);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  // A form saved in place replaces the page's main part: wire the new form too.
  document.addEventListener("sk:page", setUp);
})();
