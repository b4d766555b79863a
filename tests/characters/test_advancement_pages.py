"""The advancement pages (shop, free pick, regulation violation, bonus points) for every persona,
their forms, bad input, and the standing panel on the character page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from characters import services

from .conftest import agent_choices
from .test_advancement_services import after_adventure, promote_to_next_rank

ROLES = ("gm", "player", "other_player", "observer", "outsider", "anonymous")

#: The web routes walked here for every persona.
WALKED_PAGES = {
    "character-shop",
    "character-shop-buy",
    "character-shop-undo",
    "character-free-pick",
    "character-violation",
    "character-bonus",
}

VIEW = {"default": 200, "outsider": 404, "anonymous": 302}
OWNER_GET = {
    "gm": 200,
    "player": 200,
    "other_player": 403,
    "observer": 403,
    "outsider": 404,
    "anonymous": 302,
}
OWNER_POST = {**OWNER_GET, "gm": 302, "player": 302}
# Undo with no purchase to undo: back to the shop with a message, nothing written.
OWNER_POST_BACK = OWNER_POST
GM_GET = {"gm": 200, "player": 403, "other_player": 403, "observer": 403, "outsider": 404, "anonymous": 302}
GM_POST = {**GM_GET, "gm": 302}
PAGES = [
    ("character-shop", "get", None, VIEW),
    (
        "character-shop-buy",
        "post",
        {"purchase": "ability_point", "ability": "LUCK", "confirm": "1"},
        OWNER_POST,
    ),
    ("character-shop-undo", "post", {"entry": "0"}, OWNER_POST_BACK),
    ("character-free-pick", "get", None, OWNER_GET),
    ("character-free-pick", "post", {"pick": "talent:time_shift"}, OWNER_POST),
    ("character-violation", "get", None, GM_GET),
    ("character-violation", "post", {"regulation": "4", "note": "left a stunner"}, GM_POST),
    ("character-bonus", "get", None, GM_GET),
    ("character-bonus", "post", {"amount": "20", "session": "2026-11-20"}, GM_POST),
]


@pytest.fixture
def ready(world, make_agent):
    agent = make_agent("player")
    promote_to_next_rank(agent, world.users["gm"])
    return agent


def _as(client, world, role):
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", PAGES, ids=[f"{p[1]} {p[0]}" for p in PAGES])
def test_every_advancement_page_answers_each_role_as_it_must(world, client, ready, role, page):
    name, method, data, expected = page
    before = ready.revision
    response = getattr(_as(client, world, role), method)(reverse(name, args=[ready.pk]), data or {})
    want = expected.get(role, expected.get("default"))
    assert response.status_code == want, response.content[:500]
    if role == "anonymous":
        assert "/accounts/login/" in response["Location"]
    ready.refresh_from_db()
    writes = want == 302 and role != "anonymous" and name != "character-shop-undo"
    assert ready.revision == before + (1 if writes else 0)


def test_the_walk_covers_every_advancement_page():
    from systems.timemaster import urls

    names = {
        p.name for p in urls.urlpatterns if p.callback.__module__ == "systems.timemaster.advancement_views"
    }
    assert names == WALKED_PAGES == {p[0] for p in PAGES}


def test_the_character_page_shows_the_standing_and_links(world, client, ready):
    html = _as(client, world, "player").get(reverse("character-detail", args=[ready.pk])).content.decode()
    assert 'data-testid="rank-grade">Probationer/0<' in html
    assert "Free skill or talent waiting for reaching Probationer" in html
    assert reverse("character-free-pick", args=[ready.pk]) in html
    assert reverse("character-shop", args=[ready.pk]) in html and "Shop (open)" in html
    assert reverse("character-violation", args=[ready.pk]) not in html  # GM only
    gm_html = _as(client, world, "gm").get(reverse("character-detail", args=[ready.pk])).content.decode()
    assert reverse("character-violation", args=[ready.pk]) in gm_html
    assert reverse("character-bonus", args=[ready.pk]) in gm_html


def test_observers_see_the_standing_but_no_free_pick_link(world, client, ready):
    html = _as(client, world, "observer").get(reverse("character-detail", args=[ready.pk])).content.decode()
    assert "Free skill or talent waiting" in html
    assert reverse("character-free-pick", args=[ready.pk]) not in html


def test_the_standing_notes_unaged_demoted_and_top_ranks(world, client, make_agent):
    agent = make_agent("player")
    for build in (agent.creation_build, agent.build):
        build["rank"], build["grade"] = "Lifer", 0
        build.setdefault("state", {})["ranks_rewarded"] = [
            "Trainee",
            "Probationer",
            "Agent",
            "Operative",
            "Veteran",
            "Lifer",
        ]
    agent.save()
    from systems.timemaster import advancement_services as adv

    adv.record_violation(agent, world.users["gm"], 4)
    html = _as(client, world, "player").get(reverse("character-detail", args=[agent.pk])).content.decode()
    assert 'data-testid="unaged"' not in html  # Veteran/9 after losing a grade
    assert 'data-testid="demoted-from">Lifer/0<' in html
    for build in (agent.creation_build, agent.build):
        build["rank"], build["grade"], build["state"] = "Timemaster", 10, {}
    agent.save()
    html = client.get(reverse("character-detail", args=[agent.pk])).content.decode()
    assert "Timemaster/10: earns no more Success Points" in html and 'data-testid="unaged"' in html


def test_a_draft_and_the_wizard_review_show_no_standing(world, client):
    draft = services.create_draft(world.campaign, world.users["player"], choices=agent_choices())
    _as(client, world, "player")
    assert client.get(reverse("character-shop", args=[draft.pk])).status_code == 404
    review = client.get(reverse("character-wizard-step", args=[draft.pk, "review"]))
    assert review.status_code == 200 and b'data-testid="advancement"' not in review.content


def test_the_shop_page_lists_prices_and_buying_shows_the_new_balance(world, client, make_agent):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=300)
    _as(client, world, "player")
    page = client.get(reverse("character-shop", args=[agent.pk])).content.decode()
    assert 'data-testid="shop-balance">300<' in page
    assert 'aria-label="Buy Pistol: Specialist to Expert for 100 Success Points"' in page
    response = client.post(
        reverse("character-shop-buy", args=[agent.pk]),
        {"purchase": "specialist_to_expert", "skill": "pistol", "revision": agent.revision, "confirm": "1"},
        follow=True,
    )
    html = response.content.decode()
    assert "Bought: Skill from Specialist to Expert. 200 Success Points left." in html
    assert 'data-testid="shop-balance">200<' in html
    assert "already went up a level after this adventure" in html
    agent.refresh_from_db()
    assert agent.build["skills"]["pistol"]["level"] == "expert"


def test_the_closed_shop_has_no_buy_buttons(world, client, make_agent):
    agent = make_agent("player")
    page = _as(client, world, "player").get(reverse("character-shop", args=[agent.pk])).content.decode()
    assert "The shop opens when an adventure closes" in page and 'name="purchase"' not in page


def test_others_see_the_shop_without_buy_buttons(world, client, make_agent):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=300)
    page = _as(client, world, "other_player").get(reverse("character-shop", args=[agent.pk])).content.decode()
    assert (
        "Only the agent's player or the game master can buy here." in page and 'name="purchase"' not in page
    )


@pytest.mark.parametrize(
    "data, status, message",
    [
        ({}, 400, "Purchase: This field is required."),
        ({"purchase": "everything"}, 400, "Select a valid choice"),
        ({"purchase": "new_talent", "talent": "time_shift"}, 400, "costs 200; only 100"),
        ({"purchase": "new_skill", "skill": "historical_specialty"}, 400, "start year and an end year"),
        ({"purchase": "ability_point", "ability": "LUCK", "revision": "3"}, 409, "reload and choose again"),
        ({"purchase": "ability_point", "ability": "LUCK", "revision": "x"}, 400, "Enter a whole number"),
    ],
)
def test_bad_buys_are_a_clear_4xx_and_change_nothing(world, client, make_agent, data, status, message):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=100)
    before = agent.revision
    response = _as(client, world, "player").post(reverse("character-shop-buy", args=[agent.pk]), data)
    assert response.status_code == status
    assert message in response.content.decode()
    agent.refresh_from_db()
    assert agent.revision == before


def test_the_shop_buys_a_further_historical_specialty(world, client, make_agent):
    agent = after_adventure(make_agent("player"), world.users["gm"], amount=100)
    response = _as(client, world, "player").post(
        reverse("character-shop-buy", args=[agent.pk]),
        {
            "purchase": "new_skill",
            "skill": "historical_specialty",
            "start_year": "1400",
            "end_year": "1450",
            "cultures": "France, Burgundy",
            "confirm": "1",
        },
    )
    assert response.status_code == 302
    agent.refresh_from_db()
    assert agent.build["skills"]["historical_specialty_2"]["cultures"] == ["France", "Burgundy"]


def test_the_free_pick_page_takes_a_skill(world, client, ready):
    _as(client, world, "player")
    page = client.get(reverse("character-free-pick", args=[ready.pk])).content.decode()
    assert "This pick is for reaching Probationer." in page and 'value="skill:sword"' in page
    assert 'value="skill:lance_horsemans"' not in page  # needs Equestrian first
    response = client.post(reverse("character-free-pick", args=[ready.pk]), {"pick": "skill:sword"})
    assert response.status_code == 302
    ready.refresh_from_db()
    assert ready.build["skills"]["sword"]["level"] == "specialist"
    page = client.get(reverse("character-free-pick", args=[ready.pk])).content.decode()
    assert 'data-testid="no-pick"' in page


@pytest.mark.parametrize("pick", ["", "skill:lance_horsemans", "talent:shock", "nonsense"])
def test_a_bad_free_pick_is_400_and_changes_nothing(world, client, ready, pick):
    before = ready.revision
    response = _as(client, world, "player").post(
        reverse("character-free-pick", args=[ready.pk]), {"pick": pick}
    )
    assert response.status_code == 400
    assert b'class="error"' in response.content or b'class="errors"' in response.content
    ready.refresh_from_db()
    assert ready.revision == before


def test_the_violation_page_shows_the_next_step_and_applies_it(world, client, ready):
    _as(client, world, "gm")
    url = reverse("character-violation", args=[ready.pk])
    page = client.get(url).content.decode()
    assert "This would be offence 1: demoted one grade." in page
    assert client.post(url, {"regulation": "4"}).status_code == 302
    assert client.post(url, {"regulation": "5"}).status_code == 302
    page = client.get(url).content.decode()
    assert "This would be offence 3: demoted two ranks or banished to a prison parallel." in page
    refused = client.post(url, {"regulation": "1"})
    assert refused.status_code == 400 and "must choose" in refused.content.decode()
    assert client.post(url, {"regulation": "1", "punishment": "banishment"}).status_code == 302
    assert 'data-testid="banished"' in client.get(url).content.decode()
    ready.refresh_from_db()
    assert ready.build["state"]["banished"] is True


@pytest.mark.parametrize(
    "data, message",
    [
        ({}, "Regulation broken: This field is required."),
        ({"regulation": "9"}, "Select a valid choice"),
        ({"regulation": "4", "punishment": "none"}, "judiciary override"),
        (
            {"regulation": "4", "punishment": "none", "judiciary_override": "on"},
            "the judiciary&#x27;s reason",
        ),
        ({"regulation": "4", "mission": "999999"}, "Select a valid choice"),
    ],
)
def test_a_bad_violation_is_400_and_changes_nothing(world, client, ready, data, message):
    before = ready.revision
    response = _as(client, world, "gm").post(reverse("character-violation", args=[ready.pk]), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    ready.refresh_from_db()
    assert ready.revision == before


@pytest.mark.parametrize(
    "data, message",
    [
        ({"amount": "15", "session": "s"}, "Select a valid choice"),
        ({"amount": "10"}, "Session: This field is required."),
    ],
)
def test_a_bad_bonus_is_400_and_changes_nothing(world, client, ready, data, message):
    before = ready.revision
    response = _as(client, world, "gm").post(reverse("character-bonus", args=[ready.pk]), data)
    assert response.status_code == 400 and message in response.content.decode()
    ready.refresh_from_db()
    assert ready.revision == before


def test_more_than_50_bonus_points_in_a_session_is_refused(world, client, ready):
    _as(client, world, "gm")
    url = reverse("character-bonus", args=[ready.pk])
    assert client.post(url, {"amount": "50", "session": "s9"}).status_code == 302
    response = client.post(url, {"amount": "10", "session": "s9"})
    assert response.status_code == 400 and "At most 50 bonus points per session" in response.content.decode()


def test_page_query_counts_do_not_grow_with_the_ledger(
    world, client, make_agent, django_assert_max_num_queries
):
    agent = make_agent("player")
    _as(client, world, "player")
    for n in range(1, 6):
        after_adventure(agent, world.users["gm"], mission=f"q{n}", amount=10)
    for name in ("character-shop", "character-detail"):
        with django_assert_max_num_queries(10):
            assert client.get(reverse(name, args=[agent.pk])).status_code == 200


def test_a_purchase_asks_first_and_can_be_undone_right_after(world, client, make_agent):
    """Issue 21, defect 6: the shop asks before spending (a page without JavaScript), refuses what
    it would refuse at once, and offers to undo the purchase right after (a ledger reversal)."""
    from characters.models import AdvancementEntry

    agent = after_adventure(make_agent("player"), world.users["gm"], amount=300)
    balance, revision = agent.build["success_points"], agent.revision
    _as(client, world, "player")
    shop = client.get(reverse("character-shop", args=[agent.pk])).content.decode()
    assert 'data-confirm="Buy Pistol: Specialist to Expert for 100 Success Points?"' in shop
    url = reverse("character-shop-buy", args=[agent.pk])
    posted = {"purchase": "specialist_to_expert", "skill": "pistol", "revision": str(revision)}
    asked = client.post(url, posted)
    html = asked.content.decode()
    assert asked.status_code == 200 and "Buy Skill from Specialist to Expert for" in html
    assert '<input type="hidden" name="confirm" value="1">' in html
    assert '<input type="hidden" name="skill" value="pistol">' in html
    agent.refresh_from_db()
    assert (agent.revision, agent.build["success_points"]) == (revision, balance)
    assert client.post(url, {**posted, "revision": str(revision + 5)}).status_code == 409  # not asked

    page = client.post(url, {**posted, "confirm": "1"}, follow=True).content.decode()
    agent.refresh_from_db()
    assert agent.revision == revision + 1 and agent.build["success_points"] == balance - 100
    bought = agent.entries.order_by("-id").first()
    assert 'data-testid="shop-undo"' in page and f'name="entry" value="{bought.pk}"' in page
    undo = reverse("character-shop-undo", args=[agent.pk])
    assert _as(Client(), world, "other_player").post(undo, {"entry": bought.pk}).status_code == 403

    page = client.post(undo, {"entry": bought.pk}, follow=True).content.decode()
    assert "The purchase was undone" in page and 'data-testid="shop-undo"' not in page
    agent.refresh_from_db()
    assert agent.build["success_points"] == balance
    assert agent.build["skills"]["pistol"]["level"] == "specialist"
    assert AdvancementEntry.objects.filter(reverses=bought, kind=AdvancementEntry.REVERSAL).exists()
    again = client.post(undo, {"entry": bought.pk}, follow=True).content.decode()
    assert "Only the last purchase you made can be undone" in again
