# Dossier: `make run` serves the demo, `make test` runs the suite. Everything installs itself.
SHELL := /bin/bash
# The newest supported Python found (3.13, 3.12, then 3.11), unless PYTHON=/path/to/python3.x says.
# The venv remembers which Python made it and is made again when that changes; give each
# interpreter its own with VENV=... (.ci/run keeps .venv on 3.11 and .venv-3.13 on 3.13).
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell bash scripts/find-python.sh)
endif
VENV ?= .venv
PY := $(VENV)/bin/python
PY_VERSION := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
STAMP := $(VENV)/.installed-stamp-$(PY_VERSION)
# Development defaults: DEBUG on (no secret key needed), SQLite file and embedded broker in var/.
DEV_ENV := DEBUG=$${DEBUG:-1}
# The project's own temp folder: pytest prunes old /tmp/pytest-of-$USER folders, which pulls the
# files out from under another pytest run going on at the same time on the machine.
PYTEST := $(DEV_ENV) $(PY) -m pytest -p no:cacheprovider --basetemp=var/pytest-tmp
# Python caches compiled modules (and pytest its rewritten test modules) in __pycache__: with
# PYTHONDONTWRITEBYTECODE set (some shells and containers set it) every test process, worker and
# subprocess compiles the whole project again, ~9 s of CPU each (docs/testing.md).
unexport PYTHONDONTWRITEBYTECODE

# The packages that ship (what pylint's duplicate-code check reads; pyproject's [tool.pylint]).
SHIPPED := archive campaigns characters config kernel sheets systems

.PHONY: install run test lint e2e bench services-test clean sheets-gallery

$(STAMP): pyproject.toml
	@bash scripts/system-deps.sh
	@test -n "$(PY_VERSION)" || { echo "No supported Python found (PYTHON=$(PYTHON))" >&2; exit 1; }
	@if [ -x $(PY) ] && [ "$$($(PY) -c 'import sys; print("%d.%d" % sys.version_info[:2])')" != "$(PY_VERSION)" ]; then \
	  echo "$(VENV) was made with another Python; making it again with $(PYTHON) ($(PY_VERSION))"; rm -rf $(VENV); fi
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check --upgrade pip
	$(PY) -m pip install -q --disable-pip-version-check -e ".[dev]"
	@rm -f $(VENV)/.installed-stamp*
	@touch $(STAMP)

install: $(STAMP)

run: install
	$(DEV_ENV) $(PY) manage.py migrate --noinput
	$(DEV_ENV) $(PY) manage.py seed_demo
	$(DEV_ENV) bash scripts/run.sh

# Every core (pytest-xdist); tests marked xdist_group run in one process. Few hypothesis examples
# (HYPOTHESIS_PROFILE=dev, tests/profiles.py); .ci/run sets HYPOTHESIS_PROFILE=ci.
# It ends with the 10 slowest tests and its own time, wall and CPU (docs/testing.md: the budget);
# every test's time is in var/test-report.xml (JUnit), for the table of the most expensive ones.
test: install
	@TIMEFORMAT='make test: %0R s wall, %0U s user + %0S s sys CPU'; time ( \
	  HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-dev} $(PYTEST) -n auto --dist loadgroup --durations=10 \
	    --junitxml=var/test-report.xml -m "not e2e and not services" )

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy --strict
	$(VENV)/bin/pylint --disable=all --enable=duplicate-code --score=n $(SHIPPED)
	$(DEV_ENV) $(PY) manage.py makemigrations --check --dry-run

# Against PostgreSQL and Redis (DATABASE_URL and CELERY_BROKER_URL must point at them), on every
# core: each xdist worker has a PostgreSQL test database and Redis databases of its own
# (tests/xdist_services.py); the tests marked `services` (real worker processes, killed ones
# included) keep to one process of their own (conftest.py, SERIAL_MARKS).
services-test: install
	@TIMEFORMAT='make services-test: %0R s wall, %0U s user + %0S s sys CPU'; time ( \
	  $(PYTEST) -p tests.xdist_services -n auto --maxprocesses 4 --dist loadgroup --durations=10 -m "not e2e" )

# Every core: each xdist worker has its own live server, database file (var/e2e-test.sqlite3_gwN:
# its threads each open a connection, as the product's do; config/settings.py says why) and
# Chromium. The browser walks the project as it ships (config.settings), without the toy system.
e2e: install
	@bash scripts/system-deps.sh --browser
	@rm -f var/e2e-test.sqlite3_gw*  # a killed run's files (a WAL left beside a new database)
	@TIMEFORMAT='make e2e: %0R s wall, %0U s user + %0S s sys CPU'; time ( \
	  DOSSIER_TEST_DATABASE=$(CURDIR)/var/e2e-test.sqlite3 \
	  $(PYTEST) --ds=config.settings -n auto --dist loadgroup --durations=10 -m e2e tests/e2e )

# Figures are taken on the interpreter a server runs: the distribution's python3 where it is a
# supported version (a Debian server's `make install` finds only that one), in a venv of its own
# (.venv-bench); elsewhere the same Python as the rest. BENCH_PYTHON=/path/to/python3.x chooses.
# On the 2-core machine a pyenv build (no PGO/LTO) rendered a sheet 5-10 % (3.11) to 40-45 % (3.13)
# slower than Debian's python3.11 (docs/performance.md).
BENCH_PYTHON ?= $(shell bash scripts/find-python.sh --system 2>/dev/null || echo $(PYTHON))
bench:
	@$(MAKE) --no-print-directory install PYTHON=$(BENCH_PYTHON) VENV=.venv-bench
	$(DEV_ENV) .venv-bench/bin/python bench/run_all.py $(BENCH)

# Every sheet kind on A4 and Letter as PDFs and PNGs, with an index page: var/gallery/index.html.
sheets-gallery: install
	$(DEV_ENV) $(PY) scripts/sheets_gallery.py

clean:
	rm -rf $(VENV) .venv-bench var/*.sqlite3* var/media var/static
