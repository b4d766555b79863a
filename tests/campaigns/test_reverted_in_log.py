"""A reverted change is marked in the GM's dice log (issue 49, new-user walk point 2): when the GM
reverts what an attack did (an NPC's condition entry, a hold, an agent's ledger entry), the GM's
line for that attack says so and when. A player's line, page, API answer and live message stay
byte for byte what they were: an NPC's condition and its revert are the GM's."""

from __future__ import annotations

import re

from django.test import Client

from campaigns.table import live
from characters import services as character_services
from systems.timemaster import attacks, fight_states
from systems.timemaster import npc_condition_services as npc_cond
from systems.timemaster.models import FightState, RollLedgerEntry
from tests.campaigns.test_checks import Faces
from tests.campaigns.test_fight_states import _hold, fight  # noqa: F401  (fixture)
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)

CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+"')


def _page(client: Client, url: str) -> str:
    """The page with its CSRF token masked: the one thing that differs between any two renders."""
    return CSRF.sub(r'\1…"', client.get(url).content.decode())


def _lines_of(html: str) -> str:
    return html.split('<div id="roll-log"', 1)[1].split("</ol>", 1)[0]


def _player_view(world, api) -> dict[str, str]:
    c = world.campaign.pk
    client = Client()
    client.force_login(world.users["player"])
    membership = world.membership["player"]
    rolls = list(live.log_lines(world.users["player"], membership))
    live.forget()
    return {
        "page": _page(client, f"/campaigns/{c}/dice/"),
        "log": _page(client, f"/campaigns/{c}/dice/log/"),
        "api": api(world.users["player"]).get(f"/api/v1/campaigns/{c}/rolls/").content.decode(),
        "live": "\n".join(live._line(roll, membership) for roll in rolls),
    }


def test_the_gms_line_says_what_was_reverted_and_when_and_the_players_stays_as_it_was(
    world,
    fight,  # noqa: F811
    api,
    make_agent,  # noqa: F811
):
    harry, guard = fight
    hold = _hold(world, harry, guard)  # Harry's called hold on the guard: a C, damage and the hold
    roll = hold.roll
    gm = Client()
    gm.force_login(world.users["gm"])
    dice = f"/campaigns/{world.campaign.pk}/dice/"
    line = _lines_of(gm.get(dice).content.decode())
    assert "Guard Ottokar (shown as NPC)" in line and 'data-testid="log-reverted"' not in line
    before = _player_view(world, api)
    assert "Harry Adams" in before["page"] and "Ottokar" not in before["page"]

    entry = next(e for e in npc_cond.history(guard) if e.roll_id == roll.pk)
    npc_cond.revert(guard, world.membership["gm"], entry.pk)
    fight_states.revert(world.membership["gm"], hold.pk)
    entry.refresh_from_db()
    hold = FightState.objects.get(pk=hold.pk)

    line = _lines_of(gm.get(dice).content.decode())
    marks = re.findall(r'data-testid="log-reverted">(.*?)</span>', line, re.S)
    assert len(marks) == 2, line
    assert "Damage taken" not in marks[0] and "Stamina" in marks[0] and "on Guard Ottokar" in marks[0]
    assert "Guard Ottokar held" in marks[1]
    assert f'datetime="{entry.reverted_at.isoformat()}"' in marks[0]  # when, to the second
    assert f'datetime="{hold.reverted_at.isoformat()}"' in marks[1]
    # the GM's live line says it too (the feed renders the GM's lines as the page does)
    assert "log-reverted" in live._line(roll, world.membership["gm"])
    # what the player reads is byte for byte what it was before the reverts
    assert _player_view(world, api) == before


def test_a_reverted_hit_on_an_agent_is_marked_in_the_gms_log_only(world, api, make_agent):  # noqa: F811
    harry = make_agent("player")
    # an NPC (base 200) hits Harry: damage on his ledger, linked to the attack's roll
    roll, entries = attacks.resolve(
        world.membership["gm"],
        attacks.Attack(form="melee", strike_base=200, defender=harry),
        Faces(5, 0, 1, 1, 1, 3, 0, 3, 0),
    )
    assert entries and set(RollLedgerEntry.objects.filter(roll=roll).values_list("entry_id", flat=True)) == {
        e.pk for e in entries
    }
    before = _player_view(world, api)
    character_services.revert_entry(entries[-1], world.users["gm"], "wrong defender")
    gm = Client()
    gm.force_login(world.users["gm"])
    line = _lines_of(gm.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode())
    assert re.search(
        r'data-testid="log-reverted">reverted <time[^>]*>[^<]+</time>: Damage taken on Harry Adams', line
    )
    after = _player_view(world, api)
    assert "log-reverted" not in after["page"] and "reverted" not in _lines_of(after["page"])
    # the player's log lines are those of before (his agent's page shows the reversal, as ever)
    assert _lines_of(after["page"]) == _lines_of(before["page"]) and after["api"] == before["api"]
