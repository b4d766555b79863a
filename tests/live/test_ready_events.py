"""Pages that show play state hear of it from the live feed (issue 44, finding 2), including what
a Celery worker writes: a sheet rendered or failed, a campaign export written, a draft finalised,
a mission's result published. An event meant for one member (their render, their export) is
theirs alone: no other reader, the GM included, is sent it or finds its cursor moved by it."""

from __future__ import annotations

import random

from campaigns import missions
from campaigns.models import LiveEvent
from campaigns.table import live
from characters import services as character_services
from tests.characters.conftest import agent_choices
from tests.live.helpers import feed
from tests.secrets.worlds import _agent

READERS = ("gm", "player", "other_player", "observer")


def _events(client, world, who):
    client.force_login(world.users[who])
    return [m["event"] for m in feed(client, world.campaign.pk)[1]]


def _cursor(world, who):
    return live.latest_public_id(world.users[who], world.membership[who])


def test_an_event_for_one_member_reaches_that_member_alone(world, client):
    before = {who: _cursor(world, who) for who in READERS}
    live.publish_ready(world.campaign.pk, "export-7", [world.users["player"].pk, None])
    seen = {who: _events(client, world, who) for who in READERS}
    assert seen == {"gm": [], "player": ["export-7"], "other_player": [], "observer": []}
    # the others' pages are drawn with the cursor they had: nothing of it shows in a number
    after = {who: _cursor(world, who) for who in READERS}
    assert after["player"] != before["player"]
    assert {w: after[w] for w in READERS if w != "player"} == {w: before[w] for w in READERS if w != "player"}
    for who in READERS:
        counted = LiveEvent.objects.visible_to(world.users[who], world.membership[who]).count()
        assert counted == (1 if who == "player" else 0), who


def test_the_hubs_one_reading_sends_each_reader_what_a_reading_alone_sends(world):
    """live.render_for (the hub's fan-out, one reading for every stream of a campaign) keeps an
    event for one member to that member, as render_batch does for each reader alone."""
    live.publish_ready(world.campaign.pk, "export-8", [world.users["gm"].pk])
    live.publish_ready(world.campaign.pk, "sheet-render-9", [world.users["other_player"].pk])
    live.publish_change(world.campaign.pk, "mission-3")
    readers = [live.Reader(world.users[who], 0) for who in READERS]
    together = live.render_for(world.campaign.pk, readers)
    alone = [live.render_batch(world.users[who], world.campaign.pk, 0) for who in READERS]
    assert [b.text for b in together] == [b.text for b in alone]
    assert "export-8" in together[0].text and "sheet-render-9" in together[2].text
    assert "export-8" not in together[1].text + together[2].text + together[3].text
    assert "sheet-render-9" not in together[0].text + together[1].text + together[3].text
    assert all("event: mission-3" in b.text for b in together)


def test_a_finished_export_is_told_to_who_asked_for_it_alone(world, client, settings, tmp_path):
    from archive.services import request_export
    from archive.tasks import run_export

    settings.MEDIA_ROOT = str(tmp_path)
    export = request_export(world.campaign, world.users["gm"])
    assert run_export(export.pk) == "done"
    topic = live.topic_of("export", export.pk)
    assert _events(client, world, "gm") == [topic]
    assert all(_events(client, world, who) == [] for who in ("player", "other_player", "observer"))


def test_a_render_asked_for_and_done_is_told_to_those_who_may_read_it(world, client, settings, tmp_path):
    from sheets import services as sheet_services
    from sheets.tasks import run_render

    settings.MEDIA_ROOT = str(tmp_path)
    harry = _agent(world.campaign, world.users["player"], "Harry Adams")
    before = {who: len(_events(client, world, who)) for who in READERS}  # its finalising
    render, _ = sheet_services.request_render(
        world.users["player"], "character", world.campaign, world.membership["player"], harry
    )
    assert run_render(render.pk) == "done"
    told = [live.topic_of("sheet-render", render.pk), live.topic_of("character-sheet", harry.pk)]
    # asked for (the page's print box shows it coming), then done: the owner's and the GM's
    seen = {who: _events(client, world, who)[before[who] :] for who in READERS}
    assert seen == {"player": told[1:] + told, "gm": told[1:] + told, "other_player": [], "observer": []}


def test_the_gms_own_copy_failing_or_finishing_is_told_to_the_gm_alone(world, client):
    """The GM's copy of the party bundle holds the GM's sheets: a player never hears of it."""
    from sheets import services as sheet_services
    from sheets.tasks import _fail

    _agent(world.campaign, world.users["player"], "Harry Adams")
    seen_before = {who: _events(client, world, who) for who in READERS}
    render, _ = sheet_services.request_render(
        world.users["gm"], "party_bundle", world.campaign, world.membership["gm"], None
    )
    assert render.gm_copy
    _fail(render.pk, "The sheet took too long to render and was stopped.")
    new = _events(client, world, "gm")[len(seen_before["gm"]) :]
    assert new == [live.topic_of("sheet-render", render.pk)]
    for who in ("player", "other_player", "observer"):
        assert _events(client, world, who) == seen_before[who], who


def test_a_draft_finalised_by_the_gm_is_told_to_its_owner_and_the_gm(world, client):
    draft = character_services.create_draft(
        world.campaign, world.users["player"], choices=agent_choices(name="Ida Brandt")
    )
    character_services.finalize(draft, is_gm=True, rng=random.Random(3))
    topic = live.topic_of("character", draft.pk)
    assert topic in _events(client, world, "player") and topic in _events(client, world, "gm")
    assert topic not in _events(client, world, "other_player") + _events(client, world, "observer")


def test_a_missions_start_close_and_publication_reach_every_member(world, client):
    from systems.timemaster import missions as tm_missions
    from tests.campaigns.test_missions import roll_of
    from tests.secrets.worlds import _mission, _start

    harry = _agent(world.campaign, world.users["player"], "Harry Adams")
    mission = _start(_mission(world.campaign, [harry], "Vienna", 1805, 700), world.users["gm"])
    topic = live.topic_of("mission", mission.pk)
    assert all(_events(client, world, who).count(topic) == 1 for who in READERS)  # started
    mission = tm_missions.close_mission(world.membership["gm"], mission, "success", rng=roll_of(500))
    missions.publish_mission(mission, world.users["gm"])
    for who in READERS:
        assert _events(client, world, who).count(topic) == 3, who  # started, closed, published
