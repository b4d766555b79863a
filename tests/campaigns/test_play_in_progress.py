"""The campaign page shows each play record under way and whose move it is, for every role, linked;
each system supplies its records through the registry (issue 30, finding 11)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from campaigns.models import Campaign, Membership, Role
from characters import registry
from systems.d6 import services as d6
from systems.d6.engine.encounter import whose_turn
from tests import rows_once

#: system -> (the record's title on the page, the GM's turn words as a player reads them)
RECORDS = {
    "time_to_kill": "Mission run “The Merchant&#x27;s Ledger” (Kage)",
    "d6": "Encounter “The Warehouse”",
    "tempo": "Conflict “The Checkpoint”",
}
#: Records only their participants and the GM see (a Tempo conflict): an observer is told nothing,
#: not even that one runs.
PARTICIPANTS_ONLY = {"tempo"}


def _seed_with_an_observer():
    call_command("seed_demo", stdout=StringIO())
    carol = get_user_model().objects.create_user("carol", password="x")
    for campaign in Campaign.objects.filter(name__startswith="Demo: "):
        Membership.objects.create(campaign=campaign, user=carol, role=Role.OBSERVER)


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker):
    """The demo and its observer, seeded once for the module (tests/rows_once.py): each test starts
    from them as seeded and what it changes is rolled back after it."""
    yield from rows_once.kept(django_db_blocker, _seed_with_an_observer)


@pytest.fixture
def demo(seeded, db):
    pass


def _card(page: str) -> str:
    card = page[page.index('data-testid="play-in-progress"') :]
    return card[: card.index("</div>")]


@pytest.mark.parametrize("system", sorted(RECORDS))
@pytest.mark.parametrize("username", ["gm", "alice", "bob", "carol"])
def test_every_role_sees_the_record_under_way_and_whose_move(demo, client, system, username):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system=system)
    client.force_login(get_user_model().objects.get(username=username))
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    if username == "carol" and system in PARTICIPANTS_ONLY:
        assert RECORDS[system] not in page and 'data-testid="play-in-progress"' not in page
        return
    card = _card(page)
    assert RECORDS[system] in card
    assert ("Your move" in card) == (username == "gm")
    if username != "gm":
        assert "The game master&#x27;s move" in card
    assert "No missions yet" not in page  # the empty Missions box is gone where play is the system's own


def test_the_player_whose_turn_it_is_is_told_outside_the_encounter(demo, client):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="d6")
    encounter = campaign.d6_encounters.get(status="running")
    gm = Membership.objects.get(campaign=campaign, role=Role.GM)
    thugs = encounter.state["order"][0]
    d6.record_event(encounter, gm, {"type": "declare", "participant": thugs, "actions": 1})
    d6.record_event(encounter, gm, {"type": "done", "participant": thugs})
    encounter.refresh_from_db()
    mover = next(p for p in encounter.participants.all() if p.key == whose_turn(encounter.state))
    owner = mover.character.owner
    client.force_login(owner)
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    waiting = page[page.index("Waiting for you") :]
    assert f"Your move ({mover.name}): Encounter “The Warehouse”" in waiting[: waiting.index("</section>")]
    assert f'href="/campaigns/{campaign.pk}/encounters/{encounter.pk}/"' in waiting


def test_a_system_without_the_hook_lists_nothing_and_keeps_its_missions_box(demo, client):
    campaign = Campaign.objects.get(name__startswith="Demo: ", system="timemaster")
    assert registry.get("timemaster").records_in_progress(campaign, None, None) == []
    client.force_login(get_user_model().objects.get(username="alice"))
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "play-in-progress" not in page and "<h2>Missions</h2>" in page
