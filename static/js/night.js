// A night's page (templates/history/night.html): "Share this night" hands the story's text to
// the phone's share sheet where the browser has one, else copies it for a message. Without
// this script (or either of those), the text stays there to select and copy by hand.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const button = document.querySelector("[data-share-night]");
  const text = document.getElementById("recap-text");
  if (!button || !text) return;
  const sheet = typeof navigator.share === "function";
  if (!sheet && !(navigator.clipboard && navigator.clipboard.writeText)) return;
  button.textContent = sheet ? button.dataset.share : button.dataset.copy;
  button.hidden = false;
  const done = document.querySelector("[data-shared]");
  button.addEventListener("click", () => {
    if (sheet) {
      navigator.share({ title: document.title, text: text.value }).catch(() => {});
      return;
    }
    navigator.clipboard.writeText(text.value).then(() => { if (done) done.hidden = false; }, () => {});
  });
});
