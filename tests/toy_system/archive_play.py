"""A campaign with toy contests for the archive and hardening tests (tests/archive/conftest.py
``play_campaign``, through the toy's testkit.ARCHIVE_PLAY)."""

from __future__ import annotations


def play(world, campaign, make_hero, monkeypatch):
    from tests.toy_system.models import Contest

    make_hero(campaign, "player", name="Pip", ledger=False)
    for title, score in (("The Marble Race", 4), ("The Paper Boat Regatta", -2)):
        Contest.objects.create(campaign=campaign, title=title, score=score, created_by=world.users["gm"])
    return campaign


def more(world, campaign):
    """One more contest."""
    from tests.toy_system.models import Contest

    Contest.objects.create(campaign=campaign, title="Another race", score=1, created_by=world.users["gm"])
