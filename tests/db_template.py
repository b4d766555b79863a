"""The suite's SQLite test database (in memory; a file for the browser tests), copied from a
migrated template instead of migrated.

Running every migration takes ~4.5 s of CPU, once per test process (each xdist worker, and each
pytest run of a few files). The first process to need the database migrates it as Django does and
keeps a copy in ``var/test-db/`` (SQLite's backup API: tables, indexes, triggers, the full-text
index and the rows the migrations and their post_migrate handlers wrote); every later process, in
this run or the next, copies that file into its test database. Processes of one run take turns
through a file lock, so the second waits for the first's template instead of migrating too.

The template's name is a digest of what the migrations make the database from: every installed
app's migration files (an app without migrations: its modules, which ``--run-syncdb`` reads), the
settings module, Django's and Python's versions. Any change to them makes a new template; older
ones of the same settings module are removed (`make e2e` keeps one of its own, for the project's
settings). The migrations themselves are still tested on their own, forwards and back
(tests/*/test_*migration*.py), on the database this makes. Not used for PostgreSQL (the services
layer), nor with ``DOSSIER_TEST_DB_TEMPLATE=0``.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "var" / "test-db"


def applies(alias: str = "default") -> bool:
    from django.conf import settings

    database = settings.DATABASES[alias]
    return (
        os.environ.get("DOSSIER_TEST_DB_TEMPLATE", "1") != "0"
        and "sqlite3" in database["ENGINE"]
        and database.get("TEST", {}).get("MIGRATE", True) is not False
    )


def _settings_module() -> str:
    # the environment's: django.conf.settings is overridden for the session by then (tests/conftest.py)
    return os.environ.get("DJANGO_SETTINGS_MODULE", "")


def digest() -> str:
    import django
    from django.apps import apps

    made_from = hashlib.sha256(f"{sys.version}|{django.__version__}|{_settings_module()}".encode())
    for config in sorted(apps.get_app_configs(), key=lambda config: config.label):
        folder = Path(config.path)
        migrations = folder / "migrations"
        files = sorted(migrations.glob("*.py")) if migrations.is_dir() else sorted(folder.glob("*.py"))
        for file in files:
            made_from.update(f"{config.label}/{file.name}\0".encode())
            made_from.update(file.read_bytes())
    return made_from.hexdigest()[:20]


@contextlib.contextmanager
def _turn() -> Iterator[None]:
    FOLDER.mkdir(parents=True, exist_ok=True)
    with (FOLDER / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def migrate_from_template(migrate: Callable[[], object], connection) -> None:
    """``migrate()`` the test database of ``connection``, or copy the template that one made."""
    template = FOLDER / f"{_settings_module()}-{digest()}.sqlite3"
    with _turn():
        if not template.exists():
            migrate()
            partial = template.with_suffix(f".{os.getpid()}.partial")
            with contextlib.closing(sqlite3.connect(partial)) as copy:
                connection.connection.backup(copy)
            os.replace(partial, template)
            for old in FOLDER.glob(f"{_settings_module()}-*.sqlite3"):
                if old != template:
                    old.unlink(missing_ok=True)
            return
    connection.ensure_connection()
    with contextlib.closing(sqlite3.connect(template)) as source:
        source.backup(connection.connection)


@contextlib.contextmanager
def in_use() -> Iterator[None]:
    """While the test databases are set up: Django's ``migrate`` of a SQLite test
    database goes through the template (create_test_db imports call_command when it runs)."""
    from django.core import management
    from django.db import connections

    original = management.call_command

    def call_command(name, *args, **options):
        alias = options.get("database", "default")
        if name == "migrate" and options.get("run_syncdb") and not args and applies(alias):
            migrate_from_template(lambda: original(name, *args, **options), connections[alias])
            return None
        return original(name, *args, **options)

    management.call_command = call_command
    try:
        yield
    finally:
        management.call_command = original
