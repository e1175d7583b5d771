// The shared read-only view: ask every 2 seconds whether anything changed (ETag / 304, so an
// idle view costs one tiny request) and swap in the new content when it did.
"use strict";

(function follow() {
  const live = document.querySelector("[data-live]");
  const status = document.querySelector("[data-live-status]");
  if (!live || !window.fetch) return;
  let etag = null;
  let failures = 0;
  const poll = () => {
    if (document.visibilityState !== "visible") return;
    const headers = etag ? { "If-None-Match": etag } : {};
    fetch(window.location.href, { headers, cache: "no-store" })
      .then((response) => {
        if (response.status === 404) {
          const words = Words.of(document.body);
          const card = Object.assign(document.createElement("section"), { className: "card" });
          card.append(
            Object.assign(document.createElement("h1"), { textContent: words.gone || "" }),
            Object.assign(document.createElement("p"), { textContent: words.gone_why || "" }),
          );
          live.replaceChildren(card);
          clearInterval(timer);
          return null;
        }
        etag = response.headers.get("ETag") || etag;
        failures = 0;
        if (status) status.classList.remove("offline");
        return response.status === 200 ? response.text() : null;
      })
      .then((html) => {
        if (!html) return;
        const fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-live]");
        if (fresh) live.innerHTML = fresh.innerHTML;
      })
      .catch(() => {
        failures += 1;
        if (status && failures > 2) status.classList.add("offline");
      });
  };
  const timer = setInterval(poll, 2000);
  document.addEventListener("visibilitychange", poll);
})();

// Keep the screen on while the view is open (where the browser allows it).
if ("wakeLock" in navigator) {
  const ask = () => {
    if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(() => {});
  };
  ask();
  document.addEventListener("visibilitychange", ask);
}
