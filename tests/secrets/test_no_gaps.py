"""No gaps (issue 28): a player's and an observer's answers carry no database id of a table that
holds rows hidden from them, so no gap in a numbering counts the hidden rows.

The non-interference test cannot see a gap (its hidden rows come last, so visible rows keep their
ids); this test can. Tables the audit of the models found holding rows hidden from players:

- tally lines (``SignificanceEntry``, lines not shown to players): numbered by their position in
  the mission for players, never by id;
- the GM's own records, invitations and campaign exports: never named to players;
- NPCs not revealed, secret rolls not announced, the GM's prints: their ids are random
  (``kernel.fields.random_public_id``), so the ids a player sees say nothing about the others.

The sequences of the first two kinds are moved to numbers found nowhere else (7100001 ...) before
the world is built, and every answer every reader gets is searched for them.
"""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection

from campaigns.models import (
    NPC,
    Invitation,
    LiveEvent,
    Note,
    NoteMention,
    PlaySession,
    Roll,
    SignificanceEntry,
)
from kernel.fields import PUBLIC_ID_MIN
from sheets.models import SheetRender
from tests.secrets import worlds
from tests.secrets.test_non_interference import READERS, frozen_clock, observe  # noqa: F401

pytestmark = pytest.mark.django_db

#: Tables whose ids a player must never get, and the number their sequence is moved to.
NEVER_NAMED = {
    "campaigns_significanceentry": 7_100_000,
    "campaigns_invitation": 7_200_000,
    "archive_campaignexport": 7_300_000,
    "campaigns_webhook": 7_400_000,
    # play sessions are named by their number, mentions never (issue 50)
    "campaigns_playsession": 7_500_000,
    "campaigns_notemention": 7_600_000,
}
#: Tables holding rows some members may not see, whose ids are random instead.
RANDOM_IDS = (NPC, Roll, SheetRender, Note)


def _move_sequences():
    if connection.vendor != "sqlite":
        pytest.skip("moves SQLite's sequences (sqlite_sequence); the same test runs on the embedded default")
    with connection.cursor() as cursor:
        for table, start in NEVER_NAMED.items():
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
            cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, start])


@pytest.mark.slow
def test_no_answer_to_a_player_names_a_row_of_a_table_with_hidden_rows(make_user, client, frozen_clock):  # noqa: F811
    _move_sequences()
    users = {name: make_user(name) for name in ("gm", *READERS)}
    ids = worlds.build(users, "A")
    assert SignificanceEntry.objects.filter(shown_to_players=False).exists()
    assert (
        min(SignificanceEntry.objects.values_list("pk", flat=True))
        > NEVER_NAMED["campaigns_significanceentry"]
    )
    assert Invitation.objects.exists()
    assert min(PlaySession.objects.values_list("pk", flat=True)) > NEVER_NAMED["campaigns_playsession"]
    assert min(NoteMention.objects.values_list("pk", flat=True)) > NEVER_NAMED["campaigns_notemention"]
    # the worker told the GM alone that the GM's export (an id of its moved sequence) is ready:
    # the players' feeds, read below, must not name it (issue 44)
    export_ready = LiveEvent.objects.get(topic=f"export-{ids['hidden']['export']}")
    assert export_ready.recipient == users["gm"]
    assert ids["hidden"]["export"] > NEVER_NAMED["archive_campaignexport"]
    seen = observe(client, users, ids)
    named = re.compile(r"\b7[1-6]\d{5}\b")  # 7100001 ... 7699999
    found = [(key, match.group()) for key, (_, body) in seen.items() for match in named.finditer(body)]
    assert found == [], f"answers to players name rows of tables with hidden rows: {found[:10]}"


def test_the_tables_with_hidden_rows_that_players_see_ids_of_draw_them_at_random(make_user):
    for model in RANDOM_IDS:
        field = model._meta.pk
        assert field.default.__name__ == "random_public_id", model
    users = {name: make_user(name) for name in ("gm", *READERS)}
    worlds.build(users, "A")
    for model in RANDOM_IDS:
        ids = list(model.objects.values_list("pk", flat=True))
        assert ids and min(ids) >= PUBLIC_ID_MIN, model


def test_a_players_tally_lines_are_numbered_by_position_among_the_lines_they_see(make_user, api):
    users = {name: make_user(name) for name in ("gm", *READERS)}
    ids = worlds.build(users, "A")
    for reader in READERS:
        for mission in ids["missions"][:2]:  # the published ones
            url = f"/api/v1/campaigns/{ids['tm']}/missions/{mission}/after-action/"
            tally = json.loads(api(users[reader]).get(url).content)["tally"]
            assert [line["number"] for line in tally] == list(range(1, len(tally) + 1))
            assert all("id" not in line for line in tally)
            reverses = [line["reverses"] for line in tally if line["reverses"] is not None]
            assert all(1 <= number <= len(tally) for number in reverses)
