"""Draw the app's PNG icons from static/icon.svg, once (the PNGs are committed in static/icons/).

    .venv/bin/python tools/make_icons.py

Chromium (the browser tests' own, through playwright: a test dependency, no new one) draws the
SVG at each size:

- icon-192.png, icon-512.png: the icon as it is (rounded corners, transparent around them),
  the manifest's ``purpose: any``;
- maskable-192.png, maskable-512.png: the cards on the icon's green to every edge, inside the
  middle 80 % that every mask keeps (``purpose: maskable``: Android crops them to its shape);
- apple-touch-icon.png (180): the same square without transparency (iOS rounds it itself).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SVG = (ROOT / "static" / "icon.svg").read_text()
OUT = ROOT / "static" / "icons"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
#: The icon's own background (its first rect), used to fill the square ones to the edges.
GREEN = re.search(r'<rect width="64" height="64" rx="14" fill="(#[0-9a-f]+)"', SVG).group(1)

#: name -> (size in pixels, full square filled with green, share of the side the icon takes)
ICONS = {
    "icon-192.png": (192, False, 1.0),
    "icon-512.png": (512, False, 1.0),
    "maskable-192.png": (192, True, 0.78),
    "maskable-512.png": (512, True, 0.78),
    "apple-touch-icon.png": (180, True, 0.9),
}


def page_for(size: int, square: bool, share: float) -> str:
    inner = round(size * share)
    background = GREEN if square else "transparent"
    svg = SVG.replace("<svg ", f'<svg width="{inner}" height="{inner}" ', 1)
    return (
        "<!doctype html><html><body style='margin:0'>"
        f"<div style='width:{size}px;height:{size}px;display:grid;place-items:center;"
        f"background:{background}'>{svg}</div></body></html>"
    )


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, (size, square, share) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(size, square, share))
            page.screenshot(path=OUT / name, omit_background=not square)
            page.close()
            print(f"{name}: {size}x{size}, {(OUT / name).stat().st_size} bytes")
        browser.close()


if __name__ == "__main__":
    main()
