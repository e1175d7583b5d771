# Scorekeeper: `make run` serves the app, `make test` runs every test.
# Only python3 is needed on a fresh clone; everything else goes into .venv.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
export FLASK_APP := app

.PHONY: run test test-sqlite test-postgres lint format migrate bench clean messages translations language

# Translations: the .po files are the source (committed); the .mo files are built from them.
TRANSLATIONS := scorekeeper/translations
PO_FILES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
MO_FILES := $(PO_FILES:.po=.mo)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Installed once per change of pyproject.toml.
$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml tests/e2e/package-lock.json | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@# axe-core for the browser tests' accessibility check, from the npm registry.
	@if command -v npm >/dev/null; then \
		npm ci --prefix tests/e2e --no-audit --no-fund --silent || echo "axe-core not installed: the accessibility check will be skipped"; \
	else echo "npm not found: the accessibility check will be skipped"; fi
	touch $@ $(VENV)/.installed-run

migrate: $(VENV)/.installed-run translations
	$(BIN)/flask db upgrade

translations: $(MO_FILES)

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po | $(VENV)/.installed-run
	$(BIN)/pybabel compile --use-fuzzy -i $< -o $@ -l $*

# After adding or changing words: gather them all, then bring every language's .po up to date.
messages: $(VENV)/.installed-run
	$(BIN)/pybabel extract -F babel.cfg -k _ -k N_ -k ngettext:1,2 -k lazy_gettext \
		-k lazy_ngettext:1,2 --no-location --sort-output --project Scorekeeper -o $(TRANSLATIONS)/messages.pot .
	$(BIN)/pybabel update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) --no-fuzzy-matching

# A new language: make language LANG=xx (then translate $(TRANSLATIONS)/xx/LC_MESSAGES/messages.po).
language: $(VENV)/.installed-run
	$(BIN)/pybabel init -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) -l $(LANG)

# Once the app answers, tools/announce.py says the address to open, and the one a phone on the
# same network opens (with HOST=0.0.0.0; the default 127.0.0.1 serves this computer only).
run: migrate
	@$(BIN)/python tools/announce.py "$(HOST)" "$(PORT)" &
	$(BIN)/flask run --host "$(HOST)" --port "$(PORT)"

# SQLite always; PostgreSQL too when one answers (see tools/pg_test_db.py). The PostgreSQL
# pass leaves out what touches no database (the pure rules) and the browser tests.
test: $(VENV)/.installed-test translations
	$(BIN)/python -m pytest $(PYTEST_ARGS)
	@url=$$($(BIN)/python tools/pg_test_db.py create) ; \
	if [ -z "$$url" ]; then \
		echo "PostgreSQL skipped: no server answered at $${PG_ADMIN_URL:-postgresql://postgres@127.0.0.1:5432/postgres}."; \
	else \
		echo "Running the suite again on PostgreSQL ($$url), without the pure rules and browser tests"; \
		DATABASE_URL="$$url" $(BIN)/python -m pytest -m "not pure and not browser" $(PYTEST_ARGS); status=$$?; \
		$(BIN)/python tools/pg_test_db.py drop "$$url"; \
		exit $$status; \
	fi

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
