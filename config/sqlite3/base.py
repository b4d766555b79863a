"""Django's SQLite backend, with write transactions taken in turn through a file lock.

SQLite lets one writer at a time; a connection that finds the database locked sleeps in SQLite's
busy handler (1, 2, 5 ... 50, 100 ms) and tries again. With several processes writing (uvicorn
workers, the Celery worker) a waiter that keeps waking just after another writer took the lock
waits on and on: bench/live.py, two workers at 40 rolls/s, saw roll requests wait seconds and
some fail with "database is locked" after the 20 s timeout. Here every write transaction (an
``atomic`` block: BEGIN IMMEDIATE) first takes an exclusive ``flock`` on a file beside the
database: the kernel wakes a waiter the moment the holder commits, and the wait blocks only the
waiting thread (the GIL is released). Single statements outside ``atomic`` keep SQLite's own
locking; readers never wait (WAL).
"""

from __future__ import annotations

import fcntl
import os

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _lock_fd: int | None = None
    _lock_held = False

    def _lock_path(self) -> str | None:
        name = str(self.settings_dict["NAME"])
        if not name or name == ":memory:" or name.startswith("file:"):
            return None  # an in-memory database has one process
        return name + ".writelock"

    def _acquire_write_lock(self) -> None:
        path = self._lock_path()
        if path is None or self._lock_held:
            return
        if self._lock_fd is None:
            self._lock_fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        self._lock_held = True

    def _release_write_lock(self) -> None:
        if self._lock_held and self._lock_fd is not None:
            self._lock_held = False
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _start_transaction_under_autocommit(self) -> None:
        self._acquire_write_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            self._release_write_lock()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._release_write_lock()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._release_write_lock()
            if self._lock_fd is not None:
                os.close(self._lock_fd)
                self._lock_fd = None
