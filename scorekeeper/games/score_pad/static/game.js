// Score pad: the status line adds up the round as it is typed, and ± turns a number negative
// (a phone's number keypad may have no minus key). The page works without this file.
"use strict";

(function () {
  function padForm(form) {
    const status = form.querySelector("[data-status]");
    const inputs = [...form.querySelectorAll("input[data-points]")];
    const words = Words.of(form);
    const update = () => {
      if (!status || !words.some) return;
      let sum = 0;
      let given = 0;
      inputs.forEach((input) => {
        const text = input.value.trim().replace("−", "-");
        if (!/^-?\d+$/.test(text)) return;
        sum += Number(text);
        given += 1;
      });
      status.textContent = given ? Words.fill(words.some, { sum, given }) : words.none;
    };
    inputs.forEach((input) => input.addEventListener("input", update));
    form.querySelectorAll("[data-negate]").forEach((button) => {
      button.addEventListener("click", () => {
        const input = form.querySelector(`input[name="point-${button.dataset.negate}"]`);
        const text = input.value.trim();
        input.value = text.startsWith("-") ? text.slice(1) : `-${text}`;
        input.focus();
        update();
      });
    });
    update();
  }

  function setUp() {
    document.querySelectorAll("form[data-pad-form]").forEach(padForm);
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("sk:page", setUp);
})();
