// The page's words for its scripts. Every word a script writes comes from the page: a
// ``data-words`` attribute (JSON: whole sentences in the reader's language, with {names} to
// fill in) on the element the script works on, the body for the words of every page. Numbers
// are written in the reader's digits (Intl writes Bengali digits for a Bengali page) with a
// real minus sign, as the server writes them.
"use strict";

window.Words = (function () {
  const digits = new Intl.NumberFormat(document.documentElement.lang || "en", { useGrouping: false });
  const number = (value) => digits.format(value).replace("-", "−");
  const fill = (text, values) =>
    String(text).replace(/\{(\w+)\}/g, (whole, key) =>
      key in values ? (typeof values[key] === "number" ? number(values[key]) : String(values[key])) : whole);
  // The words of ``element`` (an empty set when it has none or they do not read).
  const of = (element) => {
    try {
      return element && element.dataset.words ? JSON.parse(element.dataset.words) : {};
    } catch (error) {
      return {};
    }
  };
  return { number, fill, of };
})();
