// The page's words for its scripts. Every word a script writes comes from the page: a
// ``data-words`` attribute (JSON: whole sentences in the reader's language, with {names} to
// fill in) on the element the script works on, the body for the words of every page. Numbers
// are written in the reader's digits (Intl writes Bengali digits for a Bengali page) with a
// real minus sign, as the server writes them.
"use strict";

window.Words = (function () {
  const lang = document.documentElement.lang || "en";
  const digits = new Intl.NumberFormat(lang, { useGrouping: false });
  const twoDigits = new Intl.NumberFormat(lang, { useGrouping: false, minimumIntegerDigits: 2 });
  const number = (value) => digits.format(value).replace("-", "−");
  // A time of day as the reader writes it: the words give CLDR's pattern ("HH:mm", "h:mm a")
  // and the halves of the day (the server's time_words), filled in with the reader's digits.
  const time = (date, words) =>
    String(words.time_pattern || "").replace(/([Hhma])\1*/g, (token) => {
      const hours = date.getHours();
      if (token[0] === "a") return hours < 12 ? words.am : words.pm;
      const value = { H: hours, h: hours % 12 || 12, m: date.getMinutes() }[token[0]];
      return (token.length > 1 ? twoDigits : digits).format(value);
    });
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
  return { number, fill, of, time };
})();
