"""Each game system's part of the chronicle's browser test (tests/e2e/test_chronicle_evenings.py):
one module per system, named by its testkit's ``BROWSER_EVENING``, with ``play(table) -> Evening``.

``table`` is a ``Table`` (the GM's and the player's pages, the campaign, the player's character and
the play session under way). ``play`` drives the system's own pages through an advancement by the
system's award flow and a step of a scene, and returns what the player's copy must show
(``shown``) and what it must not (``hidden``). A step a browser cannot reasonably drive is
done through the system's services and named in ``through_services``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class Table:
    gm: Any  # the GM's Playwright page, logged in
    player: Any  # the player's page, logged in (a phone's width)
    campaign: Any
    hero: Any  # the player's character
    session: Any  # the play session under way
    gm_user: Any
    player_user: Any


@dataclass
class Evening:
    #: Words the player's session page must show (the scene, the advancement as the record says it).
    shown: list[str] = field(default_factory=list)
    #: Words no copy of the player's may hold (the scene's GM-only inputs).
    hidden: list[str] = field(default_factory=list)
    #: The steps done through services, not the browser, and why.
    through_services: list[str] = field(default_factory=list)
    #: Words the player's recap ("Previously on…") must show besides the shared note (a scene ended).
    recap: list[str] = field(default_factory=list)


def beside_the_server(write: Callable[[], T], attempts: int = 4) -> T:
    """A write the test makes itself (a service, the worker's part of a job) while the live server's
    threads read the same database. Under `make e2e` the database is a file and the write waits its
    turn; run by hand on the suite's in-memory database (shared cache), a write that meets a
    reader's table lock fails at once ("database table is locked"). So it is tried again a few
    times, as the Celery worker tries a render again on a transient database error. A write must be
    safe to try again (a render is; a service call checks that it was not made)."""
    from django.db import DatabaseError

    for attempt in range(attempts):
        try:
            return write()
        except DatabaseError as error:
            if "locked" not in str(error) or attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")
