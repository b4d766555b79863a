"""config/sqlite3: write transactions on SQLite take a file lock in turn, so a writer waits for the
one before it however long it holds the database, instead of sleeping in SQLite's busy handler
and failing with "database is locked" once the timeout runs out (bench/live.py saw that with two
web workers). Threads with connections of their own contend as processes do."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler


@pytest.fixture(autouse=True)
def _own_connections(django_db_blocker):
    """These tests open connections to files of their own, not to the test database."""
    with django_db_blocker.unblock():
        yield


HOLD = 0.4  # the first writer keeps the database this long
TIMEOUT = 0.05  # SQLite's busy timeout for the others: far shorter than HOLD


def _handler(path, engine):
    """Connections of their own (one per thread), outside the test database's."""
    return ConnectionHandler(
        {
            "default": {
                "ENGINE": engine,
                "NAME": str(path),
                "OPTIONS": {"timeout": TIMEOUT, "transaction_mode": "IMMEDIATE"},
            }
        }
    )


@contextmanager
def _transaction(connection):
    """What an outermost ``atomic`` block does on SQLite (BEGIN IMMEDIATE ... COMMIT/ROLLBACK)."""
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    try:
        yield
    except BaseException:
        connection.rollback()
        connection.set_autocommit(True)
        raise
    connection.commit()
    connection.set_autocommit(True)


def _race(path, engine) -> list[str]:
    """One writer holds a transaction for HOLD seconds; three others start one meanwhile."""
    handler = _handler(path, engine)
    with handler["default"].cursor() as cursor:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("CREATE TABLE IF NOT EXISTS t (who TEXT)")
    handler["default"].close()
    holding = threading.Event()
    outcomes: list[str] = []

    def first():
        with _transaction(handler["default"]):
            handler["default"].cursor().execute("INSERT INTO t VALUES ('first')")
            holding.set()
            time.sleep(HOLD)
        handler["default"].close()

    def other(name):
        holding.wait(5)
        try:
            with _transaction(handler["default"]):
                handler["default"].cursor().execute("INSERT INTO t VALUES (%s)", [name])
            outcomes.append("committed")
        except OperationalError as error:
            outcomes.append(str(error))
        finally:
            handler["default"].close()

    threads = [threading.Thread(target=first)] + [
        threading.Thread(target=other, args=(f"other-{n}",)) for n in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return outcomes


@pytest.mark.parametrize(
    ("engine", "locked"), [("django.db.backends.sqlite3", True), ("config.sqlite3", False)]
)
def test_writers_wait_their_turn_instead_of_failing(tmp_path, engine, locked):
    outcomes = _race(tmp_path / "db.sqlite3", engine)
    assert len(outcomes) == 3
    if locked:  # Django's own backend: the others give up after the busy timeout
        assert "database is locked" in outcomes
    else:  # with the file lock every one of them commits, in turn
        assert outcomes == ["committed"] * 3


def test_the_lock_is_let_go_on_rollback_and_on_close(tmp_path):
    path = tmp_path / "db.sqlite3"
    connection = _handler(path, "config.sqlite3")["default"]
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE t (who TEXT)")
    with pytest.raises(ZeroDivisionError), _transaction(connection):
        connection.cursor().execute("INSERT INTO t VALUES ('lost')")
        1 / 0  # noqa: B018
    assert not connection._lock_held
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    assert connection._lock_held
    connection.close()  # mid-transaction: closed, and the lock let go with it
    assert not connection._lock_held and connection._lock_fd is None
    handler = _handler(path, "config.sqlite3")
    done = threading.Event()

    def write():  # another connection (another thread) takes the lock at once
        other = handler["default"]
        with _transaction(other):
            other.cursor().execute("INSERT INTO t VALUES ('next')")
        other.close()
        done.set()

    threading.Thread(target=write).start()
    assert done.wait(5)
    assert (tmp_path / "db.sqlite3.writelock").exists()
