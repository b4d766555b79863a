"""Rows built once for the tests of a module, each test still starting from them untouched.

A module-scoped fixture builds its rows inside a transaction of its own and rolls it back when the
module's tests are done. Each test (pytest-django's ``db``) runs inside it, in a savepoint rolled
back after the test, as Django's ``TestCase.setUpTestData`` does: a test sees the rows as built and
what it changes is gone for the next one. For rows that take seconds to build (the whole demo seed)
and that many tests only read or change a little (docs/testing.md, stop 55).

    @pytest.fixture(scope="module")
    def seeded(django_db_setup, django_db_blocker):
        yield from rows_once.kept(django_db_blocker, lambda: call_command("seed_demo"))

Not for a module with transactional tests (``transaction=True``, ``live_server``): those empty the
tables between tests. The function-scoped fixture that hands the rows to a test reads them anew
from the database (ids or a query), never model instances kept from the build: those would carry
one test's in-memory changes into the next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

T = TypeVar("T")


def kept(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """Run ``build`` in a transaction that stays open for the module; yield what it returned."""
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        # as Django's own test-case transactions: a durable atomic block in the code under test
        # nests in the test's transaction without complaint
        outer._from_testcase = True  # noqa: SLF001
        outer.__enter__()
        try:
            built = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
