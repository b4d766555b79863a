"""Search in a browser (issue 50, part 5): a player presses "/" on the campaign page, types a word
and reads the results grouped by kind, each linking to its page, the matching words marked, and
nothing the GM hid (a GM-only note, a secret roll, an unrevealed NPC); the GM finds those too. The
page fits 1280 and 390 px and axe-core finds no serious problem at either width; a bad query says
what is wrong.

DOSSIER_SCREENSHOTS=docs/screenshots/chronicle saves the results at 1280 and 390 px, as a player
and as the GM.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from campaigns.table import rolling
from tests.e2e.test_play_sessions import PASSWORD, log_in, look

pytestmark = pytest.mark.django_db(transaction=True)


def _campaign():
    from django.contrib.auth import get_user_model

    from campaigns import npc_services, services
    from campaigns.chronicle import notes, play_sessions
    from campaigns.models import Membership, Note, NoteVisibility, Role
    from characters import services as character_services
    from tests.characters.conftest import agent_choices

    users = {n: get_user_model().objects.create_user(n, password=PASSWORD) for n in ("gm", "alice", "bob")}
    campaign = services.create_campaign(users["gm"], name="Chronos Watch", system="timemaster")
    for name in ("alice", "bob"):
        Membership.objects.create(campaign=campaign, user=users[name], role=Role.PLAYER)
    members = {m.user.username: m for m in campaign.memberships.select_related("user", "campaign")}
    draft = character_services.create_draft(
        campaign, users["alice"], choices=agent_choices(name="Harry Adams")
    )
    character_services.finalize(draft, is_gm=True, rng=random.Random(3))
    npc_services.create_npc(
        campaign, users["gm"],
        {"name": "Tower warden", "revealed": True, "significance_rating": 20,
         "public_description": "Keeps the keys of the clock tower <and> its bells."},
    )  # fmt: skip
    npc_services.create_npc(
        campaign, users["gm"], {"name": "Tower ghost", "revealed": False, "significance_rating": 9}
    )
    session = play_sessions.start(members["gm"], title="The clock tower")
    for title, body, visibility in (
        ("Recap", "We climbed the **tower** with [[Harry Adams]] and rang the bells at midnight.", "shared"),
        ("Plot", "The tower ghost waits in the gears.", NoteVisibility.GM),
    ):
        notes.save_note(
            Note(campaign=campaign, play_session=session, author=users["gm"], title=title, body=body,
                 visibility=visibility)
        )  # fmt: skip
    rolling.record_roll(members["alice"], kind="d6", count=2, purpose="Climb the tower", rng=random.Random(1))
    rolling.record_roll(
        members["gm"], kind="percent", secret=True, purpose="Does the tower guard wake?", rng=random.Random(2)
    )
    play_sessions.end(members["gm"], session)
    play_sessions.start(members["gm"], title="Down from the tower")
    return campaign


def test_a_player_searches_with_the_keyboard_and_finds_only_what_they_may_see(new_page):
    campaign = _campaign()
    player = new_page()
    log_in(player, "bob")
    player.goto(f"/campaigns/{campaign.pk}/")
    player.keyboard.press("/")
    box = player.get_by_role("searchbox", name="Search this campaign")
    expect(box).to_be_focused()
    player.keyboard.type("tower")
    player.keyboard.press("Enter")
    expect(player.get_by_role("heading", name="Search Chronos Watch")).to_be_visible()
    main = player.locator("main")
    for group in ("Notes", "Play sessions", "NPCs", "Roll log"):
        expect(main.get_by_role("heading", name=group)).to_be_visible()
    expect(main.get_by_role("link", name="Recap")).to_be_visible()
    expect(main.get_by_role("link", name="Climb the tower")).to_be_visible()
    expect(main.locator("mark").first).to_have_text("tower")
    expect(main).to_contain_text("Keeps the keys of the clock tower <and> its bells.")
    for secret in ("Plot", "ghost", "guard wake"):
        expect(main).not_to_contain_text(secret)
    expect(box).to_have_value("tower")
    look(player, "search-player")
    resize_back = player.viewport_size
    assert resize_back is not None
    main.get_by_role("link", name="Recap").click()
    expect(player.get_by_role("heading", name="Recap")).to_be_visible()

    player.goto(f"/campaigns/{campaign.pk}/search/?q=%22%28*")
    expect(player.get_by_role("alert")).to_contain_text("no letters or digits")

    gm = new_page()
    log_in(gm, "gm")
    gm.goto(f"/campaigns/{campaign.pk}/search/?q=tower")
    main = gm.locator("main")
    for found in ("Plot", "Tower ghost", "Does the tower guard wake?"):
        expect(main).to_contain_text(found)
    look(gm, "search-gm")
