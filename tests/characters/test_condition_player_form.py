"""The condition form shows each member only what he may record (issue 49, point 6): a player's
form has rest, sleep, Luck and talents, never the GM's treatment, cause or damage fields
(timemaster-play.md §16-§17; who records what: systems/timemaster/condition_services.py)."""

from __future__ import annotations

from tests.characters.conftest import make_agent  # noqa: F401  (fixture)

GM_ONLY = ("condition-how", "condition-cause", "condition-stamina", "condition-wounds", "condition-source")
PLAYER = ("condition-rounds", "condition-hours", "condition-points")


def _form(client, agent):
    page = client.get(f"/characters/{agent.pk}/").content.decode()
    if 'name="condition-kind"' not in page:
        return ""
    return page.split('name="condition-kind"', 1)[1].split("</form>")[0]


def test_the_players_condition_form_has_only_the_fields_a_player_records(world, make_agent, client):  # noqa: F811
    agent = make_agent("player")
    client.force_login(world.users["player"])
    form = _form(client, agent)
    assert all(f'name="{name}"' in form for name in PLAYER), form
    assert not any(f'name="{name}"' in form for name in GM_ONLY)
    client.force_login(world.users["gm"])
    form = _form(client, agent)
    assert all(f'name="{name}"' in form for name in (*PLAYER, *GM_ONLY))
