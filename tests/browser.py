"""Browser tests: Playwright drives Debian's Chromium at phone size against a live server.

The fixtures and helpers of every browser test (tests/e2e/ and each game's folder under
tests/games/), registered for the whole suite by ``pytest_plugins`` in tests/conftest.py. A
test that uses the ``browser`` fixture is marked ``browser`` there.

They are skipped, saying why, where Chromium or Playwright is missing. No browser is ever
downloaded: CHROMIUM (default /usr/bin/chromium) names the one to use. Chromium is launched
once per session (once per worker with ``-n``).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
#: The phones the pages must fit: a common one, and a small one.
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
E2E = Path(__file__).parent / "e2e"
SCREENS = E2E / "screens"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def browser():
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("browser tests skipped: the playwright package is not installed")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def patient_expect():
    """Playwright's assertions given as long as the pages' own timeout (20 s, not 5 s), for
    the modules that ask for it (``pytestmark = pytest.mark.usefixtures("patient_expect")``):
    their steps are slow on a busy CI machine (the phone's rules in Pyodide, a link flipped
    a hundred times with a service worker in between), not wrong."""
    from playwright.sync_api import expect

    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture
def live_server(make_app):
    """The app served over HTTP on a free local port, with CSRF on as in production."""
    # A page's event stream lasts as in production (not the test client's 1 s): a phone does
    # not reconnect every two seconds through a whole test.
    app = make_app(WTF_CSRF_ENABLED=True, TESTING=False, EVENTS_LIFETIME=300)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()


def phone_settings(live_server, size=PHONE, scheme="light", service_workers="block") -> dict:
    """A phone's settings for a browser context: its screen, touch, colours, the live server.

    service_workers: the app's service worker is left out ("block") but where a test is about
    it ("allow", tests/e2e/test_phone_offline.py): it would precache every static file in
    each test's new context, and requests it answers are out of ``page.route``'s reach."""
    return {
        "service_workers": service_workers,
        "viewport": size,
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
        "base_url": live_server,
        "color_scheme": scheme,
    }


def open_phone(browser, live_server, size=PHONE, scheme="light", bypass_csp=False):
    # bypass_csp: only for the accessibility check, which injects axe-core into the pages.
    return browser.new_context(bypass_csp=bypass_csp, **phone_settings(live_server, size, scheme))


@pytest.fixture
def phone(browser, live_server):
    """A page in a fresh 390x844 phone browser context, pointed at the live server."""
    yield from _phone_page(browser, live_server, PHONE)


@pytest.fixture
def axe_phone(browser, live_server):
    """A phone page into which axe-core may be injected (the page's CSP is bypassed)."""
    yield from _phone_page(browser, live_server, PHONE, bypass_csp=True)


@pytest.fixture
def small_phone(browser, live_server):
    """The same on a small (360x740) phone."""
    yield from _phone_page(browser, live_server, SMALL_PHONE)


def _phone_page(browser, live_server, size, bypass_csp=False):
    context = open_phone(browser, live_server, size, bypass_csp=bypass_csp)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []

    page.allowed_errors = []  # a test that breaks the network on purpose names what it expects

    def on_console(message) -> None:
        # A refused form answers 401/409/422/429 on purpose; any other error counts.
        expected = any(f"status of {code}" in message.text for code in (401, 409, 422, 429))
        expected = expected or any(text in message.text for text in page.allowed_errors)
        if message.type == "error" and not expected:
            errors.append(message.text)

    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", on_console)
    yield page
    context.close()
    assert errors == [], f"the page logged errors: {errors}"


def screenshot(page, name: str) -> None:
    """With SCREENSHOTS=1: the screen as it is now, in light and in dark, for a person to look
    at (tests/e2e/screens/, not committed)."""
    if not os.environ.get("SCREENSHOTS"):
        return
    SCREENS.mkdir(exist_ok=True)
    size = page.viewport_size
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=SCREENS / f"{name}-{size['width']}x{size['height']}-{scheme}.png")
    page.emulate_media(color_scheme="light")


def wait_until(page, expression: str, arg=None, timeout: float = 20_000) -> None:
    """Wait until an asynchronous check in the page comes true (a check of the caches or of
    IndexedDB answers a Promise). Playwright's ``wait_for_function`` cannot do this: it takes
    the Promise itself for a true answer and returns at once. ``page.evaluate`` awaits it."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still not true after {timeout / 1000:.0f} s: {expression}")
        page.wait_for_timeout(100)


def in_view(page, locator) -> bool:
    """Whether the element is wholly inside the viewport as the page stands (no scrolling)."""
    box = locator.bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5


def sign_up(page, username: str = "friday-club", password: str = "correct horse battery"):
    page.goto("/signup")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password again").fill(password)
    page.get_by_role("button", name="Sign up").click()


def open_options(page) -> None:
    """Unfold the new-game page's options (folded under the line that sums them up)."""
    options = page.locator("details#options")
    if options.get_attribute("open") is None:
        options.locator("summary").click()


def log_in(page, username: str = "friday-club", password: str = "correct horse battery"):
    """Log in on the phone (an account made beforehand, e.g. by ``make_account``)."""
    page.goto("/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/login" not in url)


def api_account(
    context, players=(), username: str = "friday-club", password: str = "correct horse battery"
) -> dict[str, str]:
    """An account and its ``players``, made through the API with the context's own request
    client (its cookie jar: the browser has fetched nothing yet); the headers of a token for
    it, for JSON bodies."""
    request = context.request
    assert request.post("/api/v1/accounts", data={"username": username, "password": password}).ok
    basic = base64.b64encode(f"{username}:{password}".encode()).decode()
    token = request.post("/api/v1/tokens", headers={"Authorization": f"Basic {basic}"}).json()
    headers = {"Authorization": f"Bearer {token['token']}", "Content-Type": "application/json"}
    for name in players:
        request.post("/api/v1/players", data=json.dumps({"name": name}), headers=headers)
    return headers


def add_players(page, *names: str):
    page.goto("/players/")
    for name in names:
        page.get_by_label("Name").fill(name)
        page.get_by_role("button", name="Add player").click()
        page.get_by_text(f"{name} added.").wait_for()


def seat_players(page, names) -> None:
    """Tap each name on the new-game page, which seats it next; first wait for the page's
    script (a tap before it ran only focuses the seat's list, and the game is refused)."""
    page.locator("form[data-seat-picker][data-ready]").wait_for()
    for name in names:
        page.locator("label.seat-name", has_text=name).click()


AXE = E2E / "node_modules" / "axe-core" / "axe.min.js"


def accessibility_problems(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands (the browser tests
    install axe-core from the npm registry: `npm install` in tests/e2e, done by `make test`)."""
    if not AXE.exists():
        pytest.skip(
            "accessibility check skipped: axe-core is not installed (npm install in tests/e2e)"
        )
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations
              .filter((v) => v.impact === "serious" || v.impact === "critical")
              .map((v) => `${v.id} (${v.impact}): ` +
                v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", "));
        }"""
    )
    return found
