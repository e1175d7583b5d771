# Scorekeeper: `make run` serves the app, `make test` runs every test.
# Only python3 is needed on a fresh clone; everything else goes into .venv.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
export FLASK_APP := app

.PHONY: run test test-fast test-sqlite test-postgres lint format migrate bench clean messages translations language lighthouse

# Translations: the .po files are the source (committed); the .mo files are built from them.
TRANSLATIONS := scorekeeper/translations
PO_FILES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
MO_FILES := $(PO_FILES:.po=.mo)

# Pyodide, for the phone's offline copy of the rules (from the npm registry; served by the app).
PYODIDE = @if command -v npm >/dev/null; then \
		npm ci --prefix tools/pyodide --no-audit --no-fund --ignore-scripts --silent \
		|| echo "Pyodide not installed: phones cannot keep a game for offline play"; \
	else echo "npm not found: Pyodide not installed, phones cannot keep a game for offline play"; fi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Installed once per change of pyproject.toml.
$(VENV)/.installed-run: pyproject.toml tools/pyodide/package-lock.json | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(PYODIDE)
	touch $@

$(VENV)/.installed-test: pyproject.toml tests/e2e/package-lock.json | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@# axe-core for the browser tests' accessibility check, from the npm registry.
	@if command -v npm >/dev/null; then \
		npm ci --prefix tests/e2e --no-audit --no-fund --silent || echo "axe-core not installed: the accessibility check will be skipped"; \
	else echo "npm not found: the accessibility check will be skipped"; fi
	$(PYODIDE)
	touch $@ $(VENV)/.installed-run

migrate: $(VENV)/.installed-run translations
	$(BIN)/flask db upgrade

translations: $(MO_FILES)

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po | $(VENV)/.installed-run
	$(BIN)/pybabel compile --use-fuzzy -i $< -o $@ -l $*

# After adding or changing words: gather them all, then bring every language's .po up to date.
# A word meant two ways has a context (pgettext("suit", "Hearts"), lazy_pgettext("game title",
# "Hearts")): the catalogs keep one message for each (msgctxt), in Python and templates alike.
messages: $(VENV)/.installed-run
	$(BIN)/pybabel extract -F babel.cfg -k _ -k N_ -k ngettext:1,2 -k lazy_gettext \
		-k lazy_ngettext:1,2 -k pgettext:1c,2 -k lazy_pgettext:1c,2 --no-location --sort-output --project Scorekeeper -o $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) --no-fuzzy-matching

# A new language: make language LANG=xx (then translate $(TRANSLATIONS)/xx/LC_MESSAGES/messages.po).
language: $(VENV)/.installed-run
	$(BIN)/pybabel init -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) -l $(LANG)

# Once the app answers, tools/announce.py says the address to open, and the one a phone on the
# same network opens (with HOST=0.0.0.0; the default 127.0.0.1 serves this computer only).
run: migrate
	@$(BIN)/python tools/announce.py "$(HOST)" "$(PORT)" &
	$(BIN)/flask run --host "$(HOST)" --port "$(PORT)"

# The test runs: pytest-xdist workers (JOBS of them per pass, one per core here), and the 25
# slowest tests named at the end. PYTHONDONTWRITEBYTECODE is lifted for them so that pytest
# keeps the test modules it rewrote (__pycache__) for the other workers and the next run.
# --maxschedchunk 1: a worker is handed the next test when it is free, in the order of
# tests/conftest.py (longest first), not a quarter of the suite at once.
JOBS ?= 2
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n $(JOBS) --maxschedchunk 1 \
	--durations=25
# With a PostgreSQL server, the database tests run on both; the rest runs once, in one pass or
# the other: the tests that touch no database (marked pure by tests/conftest.py, browser tests
# excepted) run beside the PostgreSQL tests, which take less time than the SQLite pass with the
# browser tests; the browser tests and the tests marked once (they use the database, but what
# they check does not depend on which) in the SQLite pass. Without one, all in the SQLite pass.
PG_MARKS := not browser and not once
SQLITE_MARKS := not pure or browser

# SQLite always; PostgreSQL too when one answers (see tools/pg_test_db.py), side by side: the
# PostgreSQL pass writes to a file, shown after the SQLite pass. Fails if either pass fails.
test: $(VENV)/.installed-test translations
	@url=$$($(BIN)/python tools/pg_test_db.py create); pg=""; log=$$(mktemp); \
	trap '[ -n "$$pg" ] && kill $$pg 2>/dev/null; rm -f "$$log"' EXIT; \
	if [ -n "$$url" ]; then \
		echo "PostgreSQL pass ($$url, -m \"$(PG_MARKS)\") running beside the SQLite pass"; \
		DATABASE_URL="$$url" $(PYTEST) -m "$(PG_MARKS)" $(PYTEST_ARGS) >"$$log" 2>&1 & pg=$$!; \
	fi; \
	echo "SQLite pass"; \
	if [ -n "$$url" ]; then $(PYTEST) -m "$(SQLITE_MARKS)" $(PYTEST_ARGS); \
	else $(PYTEST) $(PYTEST_ARGS); fi; sqlite=$$?; \
	if [ -z "$$url" ]; then \
		echo "PostgreSQL skipped: no server answered at $${PG_ADMIN_URL:-postgresql://postgres@127.0.0.1:5432/postgres}."; \
		exit $$sqlite; \
	fi; \
	wait $$pg; postgres=$$?; pg=""; \
	echo; echo "PostgreSQL pass ($$url):"; cat "$$log"; \
	$(BIN)/python tools/pg_test_db.py drop "$$url"; \
	echo "SQLite pass: exit $$sqlite; PostgreSQL pass: exit $$postgres"; \
	[ $$sqlite -eq 0 ] && [ $$postgres -eq 0 ]

# The quick loop while working: the rules and the service, page and API tests on SQLite; no
# browser, no drills, nothing marked slow (under two minutes on two cores).
test-fast: $(VENV)/.installed-test translations
	$(PYTEST) -m "not browser and not drill and not slow" $(PYTEST_ARGS)

# Lighthouse (pinned in tests/lighthouse/, from the npm registry) on a game page at phone
# size: performance, accessibility and best practices each at least 0.95 (tools/lighthouse.py).
# Not part of make test: about 20 s, and its 110 MB of packages are installed here only.
# Debian's Chromium (CHROME_PATH); no browser is downloaded.
lighthouse: $(VENV)/.installed-test translations
	npm ci --prefix tests/lighthouse --no-audit --no-fund --ignore-scripts --silent
	CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} $(BIN)/python tools/lighthouse.py

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(VENV)/.installed-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run.py
	$(BIN)/python bench/shared_view.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis .import_linter_cache
