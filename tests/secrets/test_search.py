"""Non-interference for search (issue 50, part 5): a player's or an observer's search results are
byte-identical whether or not hidden rows match the query.

One world is built with what every member sees (each kind holding the words searched for); each
reader's search page and API answer are fetched for several queries; then hidden rows that match
those same queries are added (a GM-only note, another member's private note, an unannounced secret
roll, an unrevealed NPC, a revealed NPC's GM notes, an unpublished tally line,
a published mission's line not shown to players, another player's draft character), and every
answer is fetched again and compared byte for byte. Hidden rows are made after the visible ones,
so the visible rows keep their ids; what the index holds for the hidden rows (their entries, the
engine's statistics) is all that changes.

What is normalised, and why that is safe: CSRF tokens (Django masks the token anew on every
render; the token is the user's, never derived from campaign data). Nothing else.
"""

from __future__ import annotations

import random
import re
from urllib.parse import quote

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.chronicle import play_sessions
from campaigns.models import NPC, Mission, NoteVisibility, SearchEntry, SignificanceEntry
from campaigns.table import rolling
from characters.models import Character
from tests.campaigns.helpers import write_note as _note
from tests.secrets.test_non_interference import CSRF

pytestmark = pytest.mark.django_db

READERS = ("player", "other_player", "observer")
QUERIES = ("lantern", "lantern cellar", "lant", "cellar", "basement lantern", "ghost")
#: For each reader, the member whose private note that reader may not read.
SOMEONE_ELSE = {"player": "other_player", "other_player": "player", "observer": "player"}


def _visible(world):
    gm, player = world.membership["gm"], world.membership["player"]
    session = play_sessions.start(gm, title="Lantern night")
    _note(world, "gm", session, "The lantern went out in the cellar.", title="Dark cellar")
    _note(world, "player", session, "I keep the lantern lit.", title="My lantern")
    rolling.record_roll(player, kind="percent", purpose="Light the lantern", rng=random.Random(1))
    rolling.record_roll(gm, kind="percent", purpose="Cellar door", rng=random.Random(2))
    # an announced secret roll: every member's log shows that it was made (a live event they see),
    # never its purpose or result, so search never finds it for them
    rolling.record_roll(
        gm, kind="percent", secret=True, purpose="Lantern ghost appears", rng=random.Random(3)
    )
    NPC.objects.create(
        campaign=world.campaign, system="timemaster", name="Lantern keeper", revealed=True,
        public_description="Keeps the lanterns of the cellar.",
    )  # fmt: skip
    NPC.objects.create(campaign=world.campaign, system="timemaster", name="Cook", revealed=True)
    closed = Mission.objects.create(
        campaign=world.campaign,
        title="The cellar",
        briefing="Bring a lantern.",
        status=Mission.Status.COMPLETED,
    )
    published = Mission.objects.create(
        campaign=world.campaign,
        title="Basement",
        status=Mission.Status.COMPLETED,
        published_at=timezone.now(),
    )
    SignificanceEntry.objects.create(mission=published, kind="other", description="Broke a lantern", rating=2)
    Character.objects.create(
        campaign=world.campaign, owner=world.users["player"], system="timemaster",
        name="Lantern Lisa", status=Character.Status.ACTIVE,
    )  # fmt: skip
    return session, closed, published


def _hidden(world, reader, session, closed, published):
    gm = world.membership["gm"]
    _note(
        world, "gm", session, "A lantern ghost haunts the cellar.", NoteVisibility.GM, title="Lantern ghost"
    )
    _note(world, SOMEONE_ELSE[reader], session, "My secret lantern cellar plan.", NoteVisibility.PRIVATE)
    rolling.record_roll(
        gm, kind="percent", secret=True, announced=False, purpose="Lantern cellar check", rng=random.Random(4)
    )
    NPC.objects.create(campaign=world.campaign, system="timemaster", name="Lantern ghost", revealed=False)
    cook = NPC.objects.get(name="Cook")
    cook.gm_notes = "Hides a lantern in the cellar; a ghost."
    cook.save()
    SignificanceEntry.objects.create(
        mission=closed, kind="other", description="Lantern ghost freed", rating=9
    )
    SignificanceEntry.objects.create(
        mission=published, kind="other", description="Lantern cellar ghost", rating=3, shown_to_players=False
    )
    owner = world.users[SOMEONE_ELSE[reader] if reader != "observer" else "other_player"]
    Character.objects.create(
        campaign=world.campaign, owner=owner, system="timemaster",
        name="Lantern ghost hunter", status=Character.Status.DRAFT,
    )  # fmt: skip


def _answers(client, api, world, reader) -> dict[str, str]:
    client.force_login(world.users[reader])
    caller = api(world.users[reader])
    out = {}
    for q in QUERIES:
        page = client.get(reverse("campaign-search", args=[world.campaign.pk]) + "?q=" + quote(q))
        assert page.status_code == 200
        out[f"page {q}"] = CSRF.sub(r"\1<csrf>", page.content.decode())
        answer = caller.get(f"/api/v1/campaigns/{world.campaign.pk}/search/", {"q": q})
        assert answer.status_code == 200
        out[f"api {q}"] = answer.content.decode()
    return out


@pytest.mark.parametrize("reader", READERS)
def test_a_readers_search_does_not_depend_on_hidden_rows_that_match_it(world, client, api, reader):
    session, closed, published = _visible(world)
    before = _answers(client, api, world, reader)
    entries = SearchEntry.objects.count()
    _hidden(world, reader, session, closed, published)
    assert SearchEntry.objects.count() >= entries + 8  # the hidden rows are in the index ...
    gm_view = _answers(client, api, world, "gm")["page lantern"]
    titles = re.findall(r'class="hit-title"[^>]*>([^<]*)<', gm_view)
    assert {"Lantern cellar check", "The cellar: Other mistake", "Lantern ghost hunter"} <= set(titles)
    after = _answers(client, api, world, reader)
    for key in before:
        assert after[key] == before[key], f"{reader}: {key} changed with hidden rows"
    # the answers are not empty: each query finds what the reader may see
    assert "<mark>" in before["page lantern"] and "Lantern keeper" in before["page lantern"]
    assert re.search(r"Broke a <mark>lantern</mark>", before["page lantern"])
    assert "Lantern ghost appears" not in before["page lantern"]  # the announced secret roll
