"""NPC records: every endpoint and page as every persona, the secrecy of NPC statistics, the
engine's rules through the API (quick NPCs, significance, status, minimum bribe), bad input,
and query counts."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns import npc_services
from campaigns.models import NPC

ROLES = ("gm", "player", "other_player", "observer", "outsider", "anonymous")

# Distinctive GM-only values: none of them may ever reach a player, in any answer.
SECRET_NOTES = "gm-only-npc-marker-5b2e"
SECRET_STR = 917
SECRET_SIGNIFICANCE = 437
SECRET_BRIBE = SECRET_SIGNIFICANCE * 10  # no status rating: significance x 10 (§8)
STAT_KEYS = (
    "gm_notes",
    "kind",
    "abilities",
    "significance_rating",
    "status_rating",
    "skills",
    "talents",
    "minimum_bribe",
    "derived",
    "revealed",
    "system",
    "created_by",
)


def _npcs(world):
    gm = world.users["gm"]
    shown = npc_services.create_npc(
        world.campaign,
        gm,
        {
            "name": "Senator Vale",
            "public_description": "A smiling politician.",
            "gm_notes": SECRET_NOTES,
            "revealed": True,
            "abilities": {"STR": SECRET_STR},
            "significance_rating": SECRET_SIGNIFICANCE,
            "skills": {"computers": {"level": "expert"}},
            "talents": ["telepathic_probe"],
        },
    )
    hidden = npc_services.create_npc(
        world.campaign,
        gm,
        {"name": "Hidden Shapeshifter", "kind": "demorean", "quick": True, "gm_notes": SECRET_NOTES},
        rng=random.Random(1),
    )
    spare = npc_services.create_npc(world.campaign, gm, {"name": "Spare", "significance_rating": 3})
    return {"c": world.campaign.pk, "shown": shown.pk, "hidden": hidden.pk, "spare": spare.pk}


MEMBER_READ = {
    "gm": 200,
    "player": 200,
    "other_player": 200,
    "observer": 200,
    "outsider": 404,
    "anonymous": 401,
}
GM_ONLY = {"gm": 200, "player": 403, "other_player": 403, "observer": 403, "outsider": 404, "anonymous": 401}
GM_READ_HIDDEN = {**MEMBER_READ, "player": 404, "other_player": 404, "observer": 404}

# (url name, method, path, body, {role: status}) in the style of test_api_roles.py
ENDPOINTS = [
    ("npc-list", "get", "/api/v1/campaigns/{c}/npcs/", None, MEMBER_READ),
    (
        "npc-list",
        "post",
        "/api/v1/campaigns/{c}/npcs/",
        {"name": "Guard", "significance_rating": 7},
        {**GM_ONLY, "gm": 201},
    ),
    ("npc-detail", "get", "/api/v1/campaigns/{c}/npcs/{shown}/", None, MEMBER_READ),
    ("npc-detail", "get", "/api/v1/campaigns/{c}/npcs/{hidden}/", None, GM_READ_HIDDEN),
    ("npc-detail", "patch", "/api/v1/campaigns/{c}/npcs/{shown}/", {"status_rating": 2}, GM_ONLY),
    ("npc-detail", "patch", "/api/v1/campaigns/{c}/npcs/{hidden}/", {"revealed": True}, GM_ONLY),
    ("npc-detail", "delete", "/api/v1/campaigns/{c}/npcs/{spare}/", None, {**GM_ONLY, "gm": 204}),
]


def _client(api, world, role):
    return api(None if role == "anonymous" else world.users[role])


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[f"{e[1]} {e[2]}" for e in ENDPOINTS])
def test_every_npc_endpoint_answers_each_role_as_it_must(world, api, role, endpoint):
    _, method, path, body, expected = endpoint
    ids = _npcs(world)
    before = list(NPC.objects.order_by("pk").values())
    response = getattr(_client(api, world, role), method)(path.format(**ids), body, format="json")
    assert response.status_code == expected[role], response.content
    if response.status_code >= 400:
        payload = response.json()
        assert payload["status"] == expected[role] and payload["errors"], payload
        assert list(NPC.objects.order_by("pk").values()) == before  # a refusal changes nothing


def test_outsider_gets_404_for_an_npc_of_a_campaign_it_is_not_in_even_by_its_own_campaign_id(world, api):
    ids = _npcs(world)
    outsider = api(world.users["outsider"])
    # the NPC's id under the outsider's own campaign: still nothing
    response = outsider.get(f"/api/v1/campaigns/{world.elsewhere.pk}/npcs/{ids['shown']}/")
    assert response.status_code == 404
    assert outsider.get(f"/api/v1/campaigns/{world.elsewhere.pk}/npcs/").json()["count"] == 0
    # the outsider is the GM of that campaign, yet cannot change or delete another campaign's NPC
    url = f"/api/v1/campaigns/{world.elsewhere.pk}/npcs/{ids['shown']}/"
    assert outsider.patch(url, {"name": "Mine now"}, format="json").status_code == 404
    assert outsider.delete(url).status_code == 404
    assert NPC.objects.get(pk=ids["shown"]).name == "Senator Vale"


# --- secrecy ------------------------------------------------------------------------------------
# Random or clock-made text (CSRF tokens, timestamps, random ids) could hold a secret number by chance.
NOISE = re.compile(r"\d{4}-\d\d-\d\dT[0-9:.]+(Z|[+-]\d\d:\d\d)?|[A-Za-z0-9]{32,}|\b\d{13,}\b")


def _assert_no_statistics(text: str, where: str) -> None:
    text = NOISE.sub("<noise>", text)
    for value in (SECRET_NOTES, str(SECRET_STR), str(SECRET_SIGNIFICANCE), str(SECRET_BRIBE)):
        assert value not in text, f"{value} shown in {where}"
    assert "Hidden Shapeshifter" not in text, f"a hidden NPC named in {where}"
    lowered = text.lower()
    for word in (
        "significance",
        "bribe",
        "demorean",
        "strength",
        "gm notes",
        "computers",
        "abilities",
        "telepathic probe",
        "paranormal",
        "expert",
    ):
        assert word not in lowered, f"{word!r} shown in {where}"


@pytest.mark.parametrize("role", ["player", "other_player", "observer"])
def test_a_player_cannot_read_an_npcs_statistics_through_any_page_or_endpoint(world, api, client, role):
    ids = _npcs(world)
    c = ids["c"]
    user = world.users[role]
    rest = api(user)

    listing = rest.get(f"/api/v1/campaigns/{c}/npcs/")
    assert [r["name"] for r in listing.json()["results"]] == ["Senator Vale"]
    for entry in listing.json()["results"]:
        assert set(entry) == {"id", "name", "public_description"}
    detail = rest.get(f"/api/v1/campaigns/{c}/npcs/{ids['shown']}/")
    assert detail.json() == {
        "id": ids["shown"],
        "name": "Senator Vale",
        "public_description": "A smiling politician.",
    }

    answers = {
        "API list": listing,
        "API detail": detail,
        "API detail with HTML accepted": rest.get(
            f"/api/v1/campaigns/{c}/npcs/{ids['shown']}/", HTTP_ACCEPT="text/html"
        ),
        "API list with HTML accepted": rest.get(f"/api/v1/campaigns/{c}/npcs/", HTTP_ACCEPT="text/html"),
        "API hidden detail": rest.get(f"/api/v1/campaigns/{c}/npcs/{ids['hidden']}/"),
        "API OPTIONS": rest.options(f"/api/v1/campaigns/{c}/npcs/"),
        "API OPTIONS detail": rest.options(f"/api/v1/campaigns/{c}/npcs/{ids['shown']}/"),
        "API create refused": rest.post(
            f"/api/v1/campaigns/{c}/npcs/",
            {"name": "X", "significance_rating": 0, "abilities": {"LUCK": 1}},
            format="json",
        ),
        "API patch refused": rest.patch(
            f"/api/v1/campaigns/{c}/npcs/{ids['hidden']}/", {"significance_rating": -1}, format="json"
        ),
        "API delete refused": rest.delete(f"/api/v1/campaigns/{c}/npcs/{ids['hidden']}/"),
    }
    client.force_login(user)
    pages = {
        "list page": client.get(f"/campaigns/{c}/npcs/"),
        "detail page": client.get(f"/campaigns/{c}/npcs/{ids['shown']}/"),
        "hidden detail page": client.get(f"/campaigns/{c}/npcs/{ids['hidden']}/"),
        "campaign page": client.get(f"/campaigns/{c}/"),
        "create refused": client.post(f"/campaigns/{c}/npcs/", {"name": "X", "significance_rating": "0"}),
        "edit refused": client.post(f"/campaigns/{c}/npcs/{ids['shown']}/", {"name": "X"}),
        "reveal refused": client.post(f"/campaigns/{c}/npcs/{ids['hidden']}/reveal/", {"revealed": "1"}),
    }
    for where, response in {**answers, **pages}.items():
        _assert_no_statistics(response.content.decode(), f"{where} as {role}")
    assert pages["list page"].status_code == 200 and b"Senator Vale" in pages["list page"].content
    assert (
        pages["detail page"].status_code == 200 and b"A smiling politician." in pages["detail page"].content
    )
    assert pages["hidden detail page"].status_code == 404
    assert answers["API hidden detail"].status_code == 404
    assert not NPC.objects.get(pk=ids["hidden"]).revealed


def test_the_gm_sees_statistics_notes_and_the_computed_bribe(world, api, client):
    ids = _npcs(world)
    body = api(world.users["gm"]).get(f"/api/v1/campaigns/{ids['c']}/npcs/{ids['shown']}/").json()
    assert body["gm_notes"] == SECRET_NOTES
    assert body["abilities"]["STR"] == SECRET_STR and "LUCK" not in body["abilities"]
    assert body["minimum_bribe"] == SECRET_BRIBE
    assert body["derived"]["skills"]["computers"]["score"] == (50 + 50) // 2 + 30  # Luck read as 50
    listing = api(world.users["gm"]).get(f"/api/v1/campaigns/{ids['c']}/npcs/").json()
    assert {r["name"] for r in listing["results"]} == {"Senator Vale", "Hidden Shapeshifter", "Spare"}
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{ids['c']}/npcs/{ids['shown']}/").content.decode()
    assert SECRET_NOTES in page and f"${SECRET_BRIBE}" in page and str(SECRET_STR) in page


# --- the engine's rules through the API -----------------------------------------------------------
def _post(api, world, body):
    return api(world.users["gm"]).post(f"/api/v1/campaigns/{world.campaign.pk}/npcs/", body, format="json")


def test_quick_human_npc_has_fifty_everywhere_and_a_significance_from_1_to_10(world, api):
    body = _post(api, world, {"name": "Innkeeper", "quick": True}).json()
    assert body["kind"] == "human" and set(body["abilities"].values()) == {50}
    assert "LUCK" not in body["abilities"]
    assert 1 <= body["significance_rating"] <= 10
    assert body["minimum_bribe"] == body["significance_rating"] * 10


def test_quick_demorean_has_forty_but_willpower_seventy_significance_zero_and_its_talents(world, api):
    body = _post(api, world, {"name": "Shifter", "quick": True, "kind": "demorean"}).json()
    assert body["abilities"]["WPR"] == 70
    assert {v for k, v in body["abilities"].items() if k != "WPR"} == {40}
    assert body["significance_rating"] == 0 and len(body["talents"]) == 8
    assert body["derived"]["luck_in_formulas"] == 40


def test_quick_npc_keeps_what_the_gm_gave(world, api):
    body = _post(
        api, world, {"name": "Bruiser", "quick": True, "abilities": {"STR": 75}, "significance_rating": 40}
    )
    assert body.status_code == 201
    assert body.json()["abilities"]["STR"] == 75 and body.json()["significance_rating"] == 40


def test_minimum_bribe_follows_status_when_there_is_one(world, api):
    body = _post(api, world, {"name": "Minister", "significance_rating": 80, "status_rating": 3}).json()
    assert body["minimum_bribe"] == 3000
    changed = api(world.users["gm"]).patch(
        f"/api/v1/campaigns/{world.campaign.pk}/npcs/{body['id']}/", {"status_rating": None}, format="json"
    )
    assert changed.json()["minimum_bribe"] == 800


def test_patching_abilities_merges_them_and_a_change_to_demorean_takes_significance_zero(world, api):
    npc = _post(api, world, {"name": "Agent X", "significance_rating": 20, "abilities": {"DEX": 66}}).json()
    url = f"/api/v1/campaigns/{world.campaign.pk}/npcs/{npc['id']}/"
    gm = api(world.users["gm"])
    body = gm.patch(url, {"abilities": {"STR": 70}}, format="json").json()
    assert (body["abilities"]["STR"], body["abilities"]["DEX"]) == (70, 66)
    body = gm.patch(url, {"kind": "demorean"}, format="json").json()
    assert body["kind"] == "demorean" and body["significance_rating"] == 0 and body["minimum_bribe"] == 0


# --- bad input --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"significance_rating": 5}, "name"),
        ({"name": "   ", "significance_rating": 5}, "name"),
        ({"name": "N", "significance_rating": 0}, "significance_rating"),
        ({"name": "N", "significance_rating": 501}, "significance_rating"),
        ({"name": "N"}, "significance_rating"),
        ({"name": "N", "significance_rating": 10**30}, "significance_rating"),
        ({"name": "N", "significance_rating": "lots"}, "significance_rating"),
        ({"name": "N", "kind": "demorean", "significance_rating": 5}, "significance_rating"),
        ({"name": "N", "kind": "robot", "significance_rating": 5}, "kind"),
        ({"name": "N", "significance_rating": 5, "status_rating": 6}, "status_rating"),
        ({"name": "N", "significance_rating": 5, "status_rating": 0}, "status_rating"),
        ({"name": "N", "significance_rating": 5, "abilities": {"LUCK": 50}}, "abilities.LUCK"),
        ({"name": "N", "significance_rating": 5, "abilities": {"STR": "x"}}, "abilities.STR"),
        ({"name": "N", "significance_rating": 5, "abilities": {"STR": -1}}, "abilities.STR"),
        ({"name": "N", "significance_rating": 5, "abilities": {"LCK": 50}}, "abilities.LCK"),
        ({"name": "N", "significance_rating": 5, "abilities": [50, 50]}, "abilities"),
        ({"name": "N", "significance_rating": 5, "talents": ["shock"]}, "talents.shock"),
        ({"name": "N", "significance_rating": 5, "talents": "shock"}, "talents"),
        (
            {"name": "N", "significance_rating": 5, "skills": {"juggling": {"level": "expert"}}},
            "skills.juggling",
        ),
        (
            {"name": "N", "significance_rating": 5, "skills": {"computers": {"level": "guru"}}},
            "skills.computers.level",
        ),
        ({"name": "N", "quick": True, "kind": "robot"}, "kind"),
        ({"name": "N" * 121, "significance_rating": 5}, "name"),
    ],
)
def test_bad_npc_input_is_a_400_naming_the_field_and_saves_nothing(world, api, body, field):
    response = _post(api, world, body)
    assert response.status_code == 400, response.content
    payload = response.json()
    assert payload["status"] == 400
    assert field in {e["field"] for e in payload["errors"]}, payload
    assert not NPC.objects.exists()


def test_a_body_that_is_not_an_object_is_a_400(world, api):
    gm = api(world.users["gm"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/npcs/"
    assert gm.post(url, json.dumps([1, 2]), content_type="application/json").status_code == 400
    assert gm.post(url, "{not json", content_type="application/json").status_code == 400
    assert not NPC.objects.exists()


def test_a_bad_patch_changes_nothing(world, api):
    ids = _npcs(world)
    before = NPC.objects.filter(pk=ids["shown"]).values().get()
    url = f"/api/v1/campaigns/{ids['c']}/npcs/{ids['shown']}/"
    gm = api(world.users["gm"])
    for body, field in (
        ({"name": "Renamed", "significance_rating": 0}, "significance_rating"),
        ({"name": ""}, "name"),
        ({"talents": ["shock"]}, "talents.shock"),
        ({"kind": "robot"}, "kind"),
        ({"abilities": {"LUCK": 3}}, "abilities.LUCK"),
    ):
        response = gm.patch(url, body, format="json")
        assert response.status_code == 400 and field in {e["field"] for e in response.json()["errors"]}
        assert NPC.objects.filter(pk=ids["shown"]).values().get() == before


def test_statistics_are_refused_for_a_system_without_npc_rules_but_names_and_notes_are_kept(world, api):
    gm = api(world.users["outsider"])  # the GM of the D6 campaign "Elsewhere"
    url = f"/api/v1/campaigns/{world.elsewhere.pk}/npcs/"
    refused = gm.post(url, {"name": "Bandit", "significance_rating": 5}, format="json")
    assert refused.status_code == 400
    assert {e["field"] for e in refused.json()["errors"]} == {"significance_rating"}
    made = gm.post(url, {"name": "Bandit", "gm_notes": "carries a map"}, format="json")
    assert made.status_code == 201
    assert made.json()["system"] == "d6" and made.json()["minimum_bribe"] is None


# --- pages -----------------------------------------------------------------------------------------
PAGE_ROLES = [("gm", 200), ("player", 200), ("other_player", 200), ("observer", 200), ("outsider", 404)]


@pytest.mark.parametrize(("role", "status"), PAGE_ROLES)
def test_npc_pages_by_role(world, client, role, status):
    ids = _npcs(world)
    client.force_login(world.users[role])
    assert client.get(f"/campaigns/{ids['c']}/npcs/").status_code == status
    assert client.get(f"/campaigns/{ids['c']}/npcs/{ids['shown']}/").status_code == status
    hidden = client.get(f"/campaigns/{ids['c']}/npcs/{ids['hidden']}/").status_code
    assert hidden == (200 if role == "gm" else 404)


@pytest.mark.parametrize(
    "page", ["/campaigns/{c}/npcs/", "/campaigns/{c}/npcs/{shown}/", "/campaigns/{c}/npcs/{hidden}/"]
)
def test_npc_pages_need_login(world, client, page):
    ids = _npcs(world)
    response = client.get(page.format(**ids))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(("role", "status"), [("player", 403), ("observer", 403), ("outsider", 404)])
def test_only_the_gm_may_create_reveal_edit_or_delete_on_the_pages(world, client, role, status):
    ids = _npcs(world)
    client.force_login(world.users[role])
    c = ids["c"]
    before = list(NPC.objects.order_by("pk").values())
    assert (
        client.post(f"/campaigns/{c}/npcs/", {"name": "Z", "kind": "human", "quick": "on"}).status_code
        == status
    )
    assert (
        client.post(f"/campaigns/{c}/npcs/{ids['hidden']}/reveal/", {"revealed": "1"}).status_code == status
    )
    assert client.post(f"/campaigns/{c}/npcs/{ids['shown']}/delete/").status_code == status
    edit = client.post(f"/campaigns/{c}/npcs/{ids['shown']}/", {"name": "Z", "kind": "human"}).status_code
    assert edit == (403 if role != "outsider" else 404)
    assert list(NPC.objects.order_by("pk").values()) == before


def test_gm_creates_a_quick_npc_on_the_page_reveals_it_and_edits_it(world, client):
    client.force_login(world.users["gm"])
    c = world.campaign.pk
    response = client.post(
        f"/campaigns/{c}/npcs/",
        {"name": "Ferryman", "public_description": "Rows.", "kind": "human", "quick": "on"},
    )
    assert response.status_code == 302
    npc = NPC.objects.get(name="Ferryman")
    assert 1 <= npc.significance_rating <= 10 and set(npc.abilities.values()) == {50} and not npc.revealed
    assert client.post(f"/campaigns/{c}/npcs/{npc.pk}/reveal/", {"revealed": "1"}).status_code == 302
    npc.refresh_from_db()
    assert npc.revealed
    edit = {
        "name": "Ferryman",
        "public_description": "Rows.",
        "revealed": "on",
        "kind": "human",
        "ability_STR": "64",
        "significance_rating": "",
        "status_rating": "2",
    }
    assert client.post(f"/campaigns/{c}/npcs/{npc.pk}/", edit).status_code == 302
    npc.refresh_from_db()
    assert npc.abilities["STR"] == 64 and npc.abilities["DEX"] == 50 and npc.status_rating == 2
    assert client.post(f"/campaigns/{c}/npcs/{npc.pk}/delete/").status_code == 302
    assert not NPC.objects.filter(pk=npc.pk).exists()


def test_bad_input_on_the_npc_page_is_a_400_showing_the_problem_on_its_field(world, client):
    client.force_login(world.users["gm"])
    c = world.campaign.pk
    response = client.post(
        f"/campaigns/{c}/npcs/", {"name": "Nobody", "kind": "human", "significance_rating": "900"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Significance rating: A human NPC&#x27;s significance runs from 1 to 500." in html
    bad_kind = client.post(
        f"/campaigns/{c}/npcs/", {"name": "Nobody", "kind": "robot", "significance_rating": "5"}
    )
    assert bad_kind.status_code == 400
    bad_ability = client.post(
        f"/campaigns/{c}/npcs/",
        {"name": "Nobody", "kind": "human", "significance_rating": "5", "ability_STR": "x"},
    )
    assert bad_ability.status_code == 400 and "Strength:" in bad_ability.content.decode()
    assert not NPC.objects.exists()


def test_campaign_navigation_has_an_npcs_tab(world, client):
    client.force_login(world.users["player"])
    html = client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    assert f'href="/campaigns/{world.campaign.pk}/npcs/">NPCs</a>' in html


# --- query counts ----------------------------------------------------------------------------------
def _grow(world, upto: int) -> None:
    gm = world.users["gm"]
    for n in range(NPC.objects.count(), upto):
        npc_services.create_npc(
            world.campaign,
            gm,
            {
                "name": f"NPC {n}",
                "revealed": n % 2 == 0,
                "significance_rating": n + 1,
                "skills": {"computers": {"level": "expert"}},
            },
        )


def _count(client, url: str) -> int:
    assert client.get(url).status_code == 200  # warm-up
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize("role", ["gm", "player"])
@pytest.mark.parametrize("url", ["/api/v1/campaigns/{c}/npcs/", "/campaigns/{c}/npcs/"])
def test_npc_lists_run_as_many_queries_for_30_npcs_as_for_3(world, api, client, role, url):
    url = url.format(c=world.campaign.pk)
    if url.startswith("/api/"):
        http = api(world.users[role])
    else:
        client.force_login(world.users[role])
        http = client
    _grow(world, 3)
    few = _count(http, url)
    _grow(world, 30)
    many = _count(http, url)
    assert few == many, f"{url} as {role}: {few} queries for 3 NPCs, {many} for 30"
    listing = api(world.users[role]).get(f"/api/v1/campaigns/{world.campaign.pk}/npcs/").json()
    assert listing["count"] == (30 if role == "gm" else 15)


# --- skills and talents on the GM's form ---------------------------------------------------------
def test_the_gms_npc_form_offers_the_whole_skills_chart_with_levels_and_every_talent(world, client):
    from systems.timemaster.engine.tables import SKILLS, TALENTS

    client.force_login(world.users["gm"])
    html = client.get(f"/campaigns/{world.campaign.pk}/npcs/").content.decode()
    first_row = html.split('id="id_skill_0"')[1].split("</select>")[0]
    assert all(f'value="{key}"' in first_row for key in SKILLS)
    assert '<label for="id_skill_0">Skill 1</label>' in html
    assert '<label for="id_level_0">Level of skill 1</label>' in html
    for key, talent in TALENTS.items():
        assert f'<label for="id_talents_{key}">{talent["name"]}</label>' in html
    assert "<legend>Demorean talents</legend>" in html


def _new_npc(**extra):
    return {"name": "Swordmaster Ito", "kind": "human", "significance_rating": "40", **extra}


def test_gm_enters_skills_with_levels_and_talents_and_sees_their_scores(world, client):
    client.force_login(world.users["gm"])
    c = world.campaign.pk
    response = client.post(
        f"/campaigns/{c}/npcs/",
        _new_npc(
            ability_DEX="70",
            skill_0="sword",
            level_0="master",
            skill_1="",
            level_1="",
            skill_2="computers",
            level_2="specialist",
            talents=["telepathic_probe", "adaptation"],
        ),
    )
    assert response.status_code == 302, response.content.decode()
    npc = NPC.objects.get(name="Swordmaster Ito")
    assert npc.skills == {"sword": {"level": "master"}, "computers": {"level": "specialist"}}
    assert npc.talents == ["telepathic_probe", "adaptation"]
    page = client.get(f"/campaigns/{c}/npcs/{npc.pk}/").content.decode()
    derived = npc_services.derived(npc)
    sword = derived["skills"]["sword"]
    assert f'<th scope="row">{sword["name"]}</th><td>Master</td><td>{sword["score"]}</td>' in page
    assert '<th scope="row">Telepathic Probe</th>' in page
    # the edit form shows them chosen, with free rows to add more
    edit_form = page.split("<h2>Edit</h2>")[1]
    assert '<option value="sword" selected>' in edit_form and '<option value="master" selected>' in edit_form
    assert 'id="id_skill_4"' in edit_form
    assert 'value="adaptation" id="id_talents_adaptation" checked' in edit_form
    # drop a skill, raise the other, untick a talent
    edit = {
        "name": "Swordmaster Ito",
        "kind": "human",
        "skill_0": "sword",
        "level_0": "expert",
        "skill_1": "",
        "level_1": "",
        "talents": ["adaptation"],
    }
    assert client.post(f"/campaigns/{c}/npcs/{npc.pk}/", edit).status_code == 302
    npc.refresh_from_db()
    assert npc.skills == {"sword": {"level": "expert"}} and npc.talents == ["adaptation"]


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"skill_0": "sword", "level_0": ""}, "Level of skill 1: Choose Specialist, Expert or Master"),
        ({"skill_0": "", "level_0": "expert"}, "Skill 1: Choose the skill this level is for."),
        (
            {"skill_0": "sword", "level_0": "expert", "skill_1": "sword", "level_1": "master"},
            "Skill 2: This skill is already in row 1.",
        ),
        ({"skill_0": "lockpicking", "level_0": "expert"}, "Skill 1: Select a valid choice."),
        ({"skill_0": "sword", "level_0": "grandmaster"}, "Level of skill 1: Select a valid choice."),
        ({"talents": ["shock"]}, "Paranormal talents: Only Demoreans have Demorean talents."),
        ({"talents": ["no_such_talent"]}, "Paranormal talents: Select a valid choice."),
    ],
)
def test_bad_skills_or_talents_on_the_page_are_a_400_on_their_field_and_save_nothing(
    world, client, extra, where
):
    client.force_login(world.users["gm"])
    response = client.post(f"/campaigns/{world.campaign.pk}/npcs/", _new_npc(**extra))
    assert response.status_code == 400
    assert where in response.content.decode().replace("&#x27;", "'")
    assert not NPC.objects.exists()


def test_a_human_talent_is_refused_for_a_demorean_on_its_field(world, client):
    client.force_login(world.users["gm"])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/npcs/",
        {"name": "Shifter", "kind": "demorean", "talents": ["telepathic_probe"]},
    )
    assert response.status_code == 400
    assert "Paranormal talents: Demoreans use their own talents" in response.content.decode()
    assert not NPC.objects.exists()


def test_a_hand_made_post_cannot_grow_the_skill_rows_without_bound(world, client):
    client.force_login(world.users["gm"])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/npcs/", _new_npc(skill_100000="sword", level_100000="expert")
    )
    assert response.status_code == 302
    assert NPC.objects.get().skills == {}
