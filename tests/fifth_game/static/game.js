// Partners: mark the page as enhanced (proves a game's own script is loaded on its pages).
document.documentElement.dataset.partners = "ready";
