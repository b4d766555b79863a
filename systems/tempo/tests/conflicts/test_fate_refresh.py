"""The GM's fate point refresh for a Tempo campaign (rules README ruling 7): the service, the button
on the conflicts page and the API answer. The route is walked for every role in test_api_roles."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from characters import services as character_services
from characters.models import AdvancementEntry, Character
from characters.systems import get_system
from systems.tempo import services


@pytest.fixture
def refresh_to(tempo):
    """Set the campaign's refresh (the fixture campaign starts agents with 2 fate points)."""

    def set_refresh(value, mode="top_up"):
        tempo.settings = {**tempo.settings, "fate_refresh": value, "fate_refresh_mode": mode}
        tempo.save()

    return set_refresh


def _gm(world):
    membership = world.tempo_membership["gm"]
    membership.campaign.refresh_from_db()
    return membership


def _give(world, agent, count):
    for _ in range(count):
        services.gain_fate_point(world.tempo_membership["gm"], agent, "gm_complication")


def _fate(agent):
    return Character.objects.get(pk=agent.pk).build["fate_points"]


@pytest.fixture
def cell(make_tempo_agent, world):
    """Three active agents with 0, 2 and 4 fate points."""
    broke = make_tempo_agent("player", name="Ada Broke")
    character_services.append_entry(
        broke,
        {"kind": "fate_point_spent", "reason": "make_aspect_apply", "aspect": "SHARP EYES", "count": 2},
        world.users["gm"],
    )
    even = make_tempo_agent("other_player", name="Bea Even")
    rich = make_tempo_agent("player", name="Cy Rich")
    _give(world, rich, 2)
    return {"broke": broke, "even": even, "rich": rich}


# -- the service --------------------------------------------------------------------------------
def test_top_up_raises_each_agent_to_the_refresh_level_through_the_ledger(world, cell, refresh_to):
    refresh_to(3)
    revisions = {k: Character.objects.get(pk=a.pk).revision for k, a in cell.items()}
    result = services.refresh_fate_points(_gm(world))
    assert [(c.character.name, c.before, c.after) for c in result.changes] == [
        ("Ada Broke", 0, 3),
        ("Bea Even", 2, 3),
    ]
    assert [(c.character.name, c.before, c.after) for c in result.unchanged] == [("Cy Rich", 4, 4)]
    assert (result.fate_refresh, result.fate_refresh_mode, result.rule) == (3, "top_up", "top up to 3")
    for key, amount in (("broke", 3), ("even", 1)):
        agent = Character.objects.get(pk=cell[key].pk)
        entry = agent.entries.order_by("id").last()
        assert (entry.kind, entry.payload) == ("fate_refresh", {"amount": amount})
        assert entry.recorded_by == world.users["gm"] and entry.reason == "Fate point refresh: top up to 3"
        assert agent.build["fate_points"] == 3 and agent.revision == revisions[key] + 1
        assert entry.revision_after == agent.revision
        assert character_services.replay(agent) == agent.build
    rich = Character.objects.get(pk=cell["rich"].pk)
    assert rich.revision == revisions["rich"] and not rich.entries.filter(kind="fate_refresh").exists()


def test_an_agent_exactly_at_the_level_gets_no_entry(world, cell, refresh_to):
    refresh_to(2)
    result = services.refresh_fate_points(_gm(world))
    assert [c.character.name for c in result.changes] == ["Ada Broke"]
    assert {c.character.name for c in result.unchanged} == {"Bea Even", "Cy Rich"}
    assert AdvancementEntry.objects.filter(kind="fate_refresh").count() == 1


def test_add_mode_adds_the_refresh_to_every_agent(world, cell, refresh_to):
    refresh_to(2, mode="add")
    result = services.refresh_fate_points(_gm(world))
    assert [(c.before, c.after) for c in result.changes] == [(0, 2), (2, 4), (4, 6)]
    assert result.unchanged == [] and result.rule == "add 2"
    assert {e.payload["amount"] for e in AdvancementEntry.objects.filter(kind="fate_refresh")} == {2}
    assert _fate(cell["rich"]) == 6


def test_the_amount_comes_from_the_settings_at_the_time_of_the_refresh(world, cell, refresh_to):
    refresh_to(1, mode="add")
    services.refresh_fate_points(_gm(world))
    refresh_to(5)
    services.refresh_fate_points(_gm(world))
    assert [_fate(cell[k]) for k in ("broke", "even", "rich")] == [5, 5, 5]


def test_a_refresh_of_zero_changes_nobody(world, cell, refresh_to):
    refresh_to(0, mode="add")
    result = services.refresh_fate_points(_gm(world))
    assert result.changes == [] and len(result.unchanged) == 3
    assert not AdvancementEntry.objects.filter(kind="fate_refresh").exists()


def test_drafts_dead_retired_and_other_campaigns_agents_are_left_alone(
    world, tempo, make_tempo_agent, refresh_to
):
    from tests.characters.conftest import agent_choices

    active = make_tempo_agent("player", name="Active Agent")
    dead = make_tempo_agent("player", name="Dead Agent")
    retired = make_tempo_agent("other_player", name="Retired Agent")
    Character.objects.filter(pk=dead.pk).update(status=Character.Status.DEAD)
    Character.objects.filter(pk=retired.pk).update(status=Character.Status.RETIRED)
    draft = character_services.create_draft(tempo, world.users["player"], choices={"name": "Half done"})
    elsewhere = character_services.finalize(
        character_services.create_draft(world.campaign, world.users["player"], choices=agent_choices()),
        is_gm=True,
    )
    refresh_to(4)
    result = services.refresh_fate_points(_gm(world))
    assert [c.character.pk for c in result.changes] == [active.pk] and result.unchanged == []
    assert set(AdvancementEntry.objects.filter(kind="fate_refresh").values_list("character", flat=True)) == {
        active.pk
    }
    for other in (dead, retired, draft, elsewhere):
        assert Character.objects.get(pk=other.pk).revision == other.revision


@pytest.mark.parametrize("persona", ["player", "other_player", "observer"])
def test_only_the_gm_refreshes(world, cell, refresh_to, persona):
    refresh_to(3)
    with pytest.raises(PermissionDenied):
        services.refresh_fate_points(world.tempo_membership[persona])
    assert not AdvancementEntry.objects.filter(kind="fate_refresh").exists()


def test_a_campaign_of_another_system_is_refused_naming_the_campaign(world):
    with pytest.raises(ValidationError) as error:
        services.refresh_fate_points(world.membership["gm"])
    assert "campaign" in error.value.message_dict


def test_it_is_all_agents_or_none(world, cell, refresh_to, monkeypatch):
    """A refusal for one agent undoes the entries already written for the others."""
    refresh_to(3)
    original, calls = character_services.append_entry, []

    def fail_second(character, entry, by, **kwargs):
        calls.append(character.pk)
        if len(calls) == 2:
            raise ValidationError({"amount": ["Refused for the test."]})
        return original(character, entry, by, **kwargs)

    monkeypatch.setattr(services.character_services, "append_entry", fail_second)
    with pytest.raises(ValidationError):
        services.refresh_fate_points(_gm(world))
    assert len(calls) == 2
    assert not AdvancementEntry.objects.filter(kind="fate_refresh").exists()
    assert [_fate(cell[k]) for k in ("broke", "even", "rich")] == [0, 2, 4]


@pytest.mark.services
def test_every_agent_row_is_locked_in_one_query_before_any_entry(world, cell, refresh_to):
    if not connection.features.has_select_for_update:
        pytest.skip("this database has no SELECT ... FOR UPDATE (SQLite locks the whole file)")
    refresh_to(3)
    with CaptureQueriesContext(connection) as queries:
        services.refresh_fate_points(_gm(world))
    sql = [q["sql"] for q in queries.captured_queries]
    first_lock = next(i for i, s in enumerate(sql) if "FOR UPDATE" in s and "characters_character" in s)
    first_entry = next(i for i, s in enumerate(sql) if s.startswith("INSERT") and "advancemententry" in s)
    assert first_lock < first_entry


def test_reverting_a_refresh_restores_the_fate_points(world, cell, refresh_to):
    refresh_to(3)
    change = services.refresh_fate_points(_gm(world)).changes[0]
    assert _fate(change.character) == 3
    reversal = character_services.revert_entry(change.entry, world.users["gm"], "wrong session")
    agent = Character.objects.get(pk=change.character.pk)
    assert agent.build["fate_points"] == change.before == 0
    assert reversal.reverses == change.entry and agent.revision == reversal.revision_after
    assert character_services.replay(agent) == agent.build


def test_the_history_page_shows_the_refresh_and_who_did_it(world, cell, refresh_to, client):
    refresh_to(3)
    services.refresh_fate_points(_gm(world))
    client.force_login(world.users["player"])
    html = client.get(f"/characters/{cell['broke'].pk}/history/").content.decode()
    assert "Fate refresh" in html and "Fate point refresh: top up to 3" in html
    assert " · gm</small>" in html


# -- the page -----------------------------------------------------------------------------------
def refresh_url(campaign):
    return f"/campaigns/{campaign.pk}/tempo/fate-refresh/"


@pytest.mark.parametrize("persona, button", [("gm", True), ("player", False), ("other_player", False)])
def test_only_the_gm_sees_the_refresh_button(world, tempo, client, refresh_to, persona, button):
    refresh_to(3)
    client.force_login(world.users[persona])
    page = client.get(f"/campaigns/{tempo.pk}/conflicts/").content.decode()
    assert ("Refresh fate points" in page) == button
    assert (refresh_url(tempo) in page) == button
    assert ("top up to 3" in page) == button


def test_the_gm_refreshes_from_the_conflicts_page_and_reads_before_and_after(
    world, tempo, cell, client, refresh_to
):
    refresh_to(3)
    client.force_login(world.users["gm"])
    response = client.post(refresh_url(tempo))
    assert response.status_code == 302 and response.url == f"/campaigns/{tempo.pk}/conflicts/"
    page = client.get(response.url).content.decode()
    assert "Fate points refreshed (top up to 3): Ada Broke 0 → 3; Bea Even 2 → 3." in page
    assert "unchanged: Cy Rich 4." in page
    assert [_fate(cell[k]) for k in ("broke", "even", "rich")] == [3, 3, 4]


def test_a_refresh_of_zero_says_so(world, tempo, cell, client, refresh_to):
    refresh_to(0)
    client.force_login(world.users["gm"])
    page = client.post(refresh_url(tempo), follow=True).content.decode()
    assert "fate point refresh is 0" in page
    assert not AdvancementEntry.objects.filter(kind="fate_refresh").exists()


@pytest.mark.parametrize(
    "persona, expected", [("player", 403), ("other_player", 403), ("observer", 403), ("outsider", 404)]
)
def test_no_one_but_the_gm_may_post_a_refresh(world, tempo, cell, client, refresh_to, persona, expected):
    refresh_to(3)
    client.force_login(world.users[persona])
    assert client.post(refresh_url(tempo)).status_code == expected
    assert not AdvancementEntry.objects.filter(kind="fate_refresh").exists()


def test_anonymous_is_sent_to_log_in(tempo, client):
    response = client.post(refresh_url(tempo))
    assert response.status_code == 302 and "/login" in response.url


def test_the_refresh_is_a_post_with_a_csrf_token(world, tempo, refresh_to):
    from django.test import Client

    refresh_to(3)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(world.users["gm"])
    assert strict.get(refresh_url(tempo)).status_code == 405
    assert strict.post(refresh_url(tempo)).status_code == 403
    page = strict.get(f"/campaigns/{tempo.pk}/conflicts/").content.decode()
    form = page.split('id="fate-refresh"')[1].split("</form>")[0]
    assert 'name="csrfmiddlewaretoken"' in form


def test_a_campaign_without_active_agents_says_so(world, tempo, client, refresh_to):
    refresh_to(3)
    client.force_login(world.users["gm"])
    page = client.post(refresh_url(tempo), follow=True).content.decode()
    assert "no active agents to refresh" in page


def test_the_page_refuses_a_campaign_of_another_system(world, client):
    client.force_login(world.users["gm"])
    assert client.post(refresh_url(world.campaign)).status_code == 404


# -- the API ------------------------------------------------------------------------------------
def test_the_api_answers_with_each_agents_before_and_after(world, api, tempo, cell, refresh_to):
    refresh_to(3)
    response = api(world.users["gm"]).post(f"/api/v1/campaigns/{tempo.pk}/tempo/fate-refresh/")
    assert response.status_code == 200, response.content
    data = response.json()
    entries = {e.character_id: e.pk for e in AdvancementEntry.objects.filter(kind="fate_refresh")}
    assert data == {
        "fate_refresh": 3,
        "fate_refresh_mode": "top_up",
        "refreshed_by": "gm",
        "changes": [
            {"character": a.pk, "name": a.name, "before": b, "after": 3, "entry": entries[a.pk]}
            for a, b in ((cell["broke"], 0), (cell["even"], 2))
        ],
        "unchanged": [
            {"character": cell["rich"].pk, "name": "Cy Rich", "before": 4, "after": 4, "entry": None}
        ],
    }


@pytest.mark.parametrize(
    "role, expected",
    [
        ("gm", 200),
        ("player", 403),
        ("other_player", 403),
        ("observer", 403),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_only_the_gms_api_refresh_writes_entries(world, api, tempo, cell, refresh_to, role, expected):
    refresh_to(3)
    client = api(None if role == "anonymous" else world.users[role])
    response = client.post(f"/api/v1/campaigns/{tempo.pk}/tempo/fate-refresh/")
    assert response.status_code == expected, response.content
    written = AdvancementEntry.objects.filter(kind="fate_refresh").count()
    assert written == (2 if role == "gm" else 0)
    if expected >= 400:
        assert response.json()["status"] == expected and response.json()["errors"]


def test_the_api_answers_404_for_a_campaign_of_another_system(world, api):
    """As every Tempo route does (tests/test_wrong_system_routes.py)."""
    response = api(world.users["gm"]).post(f"/api/v1/campaigns/{world.campaign.pk}/tempo/fate-refresh/")
    assert response.status_code == 404
    assert not AdvancementEntry.objects.exists()


def test_the_refresh_is_in_the_api_schema_with_its_own_operation(world, api):
    schema = api(world.users["gm"]).get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/campaigns/{campaign_pk}/tempo/fate-refresh/"]["post"]
    assert operation["operationId"] == "tempo_fate_refresh"
    assert "200" in operation["responses"]


# -- two refreshes at once (PostgreSQL) ------------------------------------------------------------
@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_top_ups_refresh_once(world, api, tempo, cell, refresh_to, monkeypatch):
    """Without the row locks both requests would read 2 fate points and both add 1."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://...")
    refresh_to(3)
    system = get_system("tempo")
    original = system.apply  # the engine's rule function (a staticmethod of the contract)

    def slow_apply(build, entry):
        time.sleep(0.3)
        return original(build, entry)

    monkeypatch.setattr(system, "apply", slow_apply)
    url = f"/api/v1/campaigns/{tempo.pk}/tempo/fate-refresh/"
    barrier, responses = threading.Barrier(2), []

    def refresh():
        try:
            barrier.wait(timeout=10)
            responses.append(api(world.users["gm"]).post(url))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=refresh) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [r.status_code for r in responses] == [200, 200]
    assert sorted(len(r.json()["changes"]) for r in responses) == [0, 2]
    assert [_fate(cell[k]) for k in ("broke", "even", "rich")] == [3, 3, 4]
    assert AdvancementEntry.objects.filter(kind="fate_refresh").count() == 2
