// The phones that follow a game (the shared view, a seat's page): the server pushes an event
// when the game changes (server-sent events, data-events) and the page asks for itself again
// (ETag / 304) and swaps in the new content. Without a live stream (none, or reconnecting) it
// asks every 2 seconds instead. A seat's phone buzzes when its turn comes.
"use strict";

(function follow() {
  const live = document.querySelector("[data-live]");
  const status = document.querySelector("[data-live-status]");
  if (!live || !window.fetch) return;
  let etag = null;
  let failures = 0;
  let version = live.dataset.version;
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
          if (source) source.close();
          return null;
        }
        etag = response.headers.get("ETag") || etag;
        if (response.redirected && response.status === 200) {
          window.location.href = response.url;  // the seat was freed: the page to take one
          return null;
        }
        failures = 0;
        if (status) status.classList.remove("offline");
        return response.status === 200 ? response.text() : null;
      })
      .then((html) => {
        if (!html) return;
        const fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-live]");
        if (!fresh) return;
        const wasTurn = live.querySelector("[data-your-turn]");
        // What the reader unfolded (the score chart) stays unfolded in the new version.
        const open = [...live.querySelectorAll("details[open][id]")].map((details) => details.id);
        live.innerHTML = fresh.innerHTML;
        open.forEach((id) => document.getElementById(id)?.setAttribute("open", ""));
        version = fresh.dataset.version;
        if (!wasTurn && live.querySelector("[data-your-turn]") && navigator.vibrate) {
          navigator.vibrate(200);
        }
      })
      .catch(() => {
        failures += 1;
        if (status && failures > 2) status.classList.add("offline");
      });
  };
  let source = null;
  if (live.dataset.events && window.EventSource) {
    source = new EventSource(live.dataset.events);
    source.addEventListener("game", (event) => {
      if (event.lastEventId !== version) poll();
    });
  }
  const streaming = () => source && source.readyState === EventSource.OPEN;
  const timer = setInterval(() => {
    if (!streaming()) poll();
  }, 2000);
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
