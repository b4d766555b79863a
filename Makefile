# Dossier: `make run` serves the demo, `make test` runs the suite. Everything installs itself.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# Development defaults: DEBUG on (no secret key needed), SQLite file and embedded broker in var/.
DEV_ENV := DEBUG=$${DEBUG:-1}
# The project's own temp folder: pytest prunes old /tmp/pytest-of-$USER folders, which pulls the
# files out from under another pytest run going on at the same time on the machine.
PYTEST := $(DEV_ENV) $(PY) -m pytest -p no:cacheprovider --basetemp=var/pytest-tmp

.PHONY: install run test lint e2e bench services-test clean sheets-gallery

$(STAMP): pyproject.toml
	@bash scripts/system-deps.sh
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check --upgrade pip
	$(PY) -m pip install -q --disable-pip-version-check -e ".[dev]"
	@touch $(STAMP)

install: $(STAMP)

run: install
	$(DEV_ENV) $(PY) manage.py migrate --noinput
	$(DEV_ENV) $(PY) manage.py seed_demo
	$(DEV_ENV) bash scripts/run.sh

test: install
	$(PYTEST) -m "not e2e and not services"

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

# Against PostgreSQL and Redis (DATABASE_URL and CELERY_BROKER_URL must point at them).
services-test: install
	$(PYTEST) -m "not e2e"

e2e: install
	@bash scripts/system-deps.sh --browser
	$(PYTEST) -m e2e tests/e2e

bench: install
	$(DEV_ENV) $(PY) bench/run_all.py

# Every sheet kind on A4 and Letter as PDFs and PNGs, with an index page: var/gallery/index.html.
sheets-gallery: install
	$(DEV_ENV) $(PY) scripts/sheets_gallery.py

clean:
	rm -rf $(VENV) var/*.sqlite3* var/media var/static
