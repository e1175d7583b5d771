// The offline page (the service worker shows it when a page cannot be fetched): the game pages
// this phone keeps a copy of, newest first, each with the time its copy was made.
"use strict";

(function () {
  const box = document.querySelector("[data-kept-games]");
  if (!box) return;
  const words = Words.of(box);
  const list = box.querySelector("[data-kept-list]");

  async function copies() {
    if (!window.caches) return [];
    const cache = await caches.open(box.dataset.keptGames);
    const found = [];
    for (const request of await cache.keys()) {
      const response = await cache.match(request, { ignoreVary: true });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const about = page.querySelector('meta[name="description"]');
      const kept = new Date(response.headers.get(box.dataset.keptAt));
      found.push({ url: request.url, label: about ? about.content : page.title, kept });
    }
    return found.sort((a, b) => b.kept - a.kept);
  }

  function show(found) {
    found.forEach(({ url, label, kept }) => {
      const item = document.createElement("li");
      const link = Object.assign(document.createElement("a"), { href: url, textContent: label });
      const when = Object.assign(document.createElement("span"), {
        className: "kept-at",
        textContent: Words.fill(words.offline_copy, { time: Words.time(kept, words) }),
      });
      item.append(link, when);
      list.append(item);
    });
    list.hidden = !found.length;
    box.querySelector("[data-kept-head]").hidden = !found.length;
    box.querySelector("[data-kept-none]").hidden = Boolean(found.length);
  }

  copies().catch(() => []).then(show);
})();
