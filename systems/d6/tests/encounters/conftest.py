"""A D6 campaign with a GM, two players (each with a finalized character), an observer, and an
outsider who runs a campaign of their own."""

from __future__ import annotations

import pytest

PERSONAS = ("gm", "player", "other_player", "observer", "outsider")


def character_choices(name, perception="3D", reflexes="3D", search=None, dodge=None, **extra):
    skills = {}
    if search:
        skills["search"] = {"attribute": "Perception", "code": search}
    if dodge:
        skills["dodge"] = {"attribute": "Reflexes", "code": dodge}
    skills["brawling"] = {"attribute": "Reflexes", "code": "4D"}
    return {
        "name": name,
        "attributes": {"Perception": perception, "Reflexes": reflexes, "Strength": "3D"},
        "skills": skills,
        **extra,
    }


def make_character(campaign, owner, choices):
    from characters import services

    draft = services.create_draft(campaign, owner, choices=choices)
    return services.finalize(draft)


@pytest.fixture
def d6(db, make_user):
    from campaigns import services
    from campaigns.models import Membership, Role

    users = {name: make_user(name) for name in PERSONAS}
    campaign = services.create_campaign(users["gm"], name="Night Run", system="d6")
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=users[name], role=role)
    elsewhere = services.create_campaign(users["outsider"], name="Elsewhere", system="d6")

    class World:
        pass

    w = World()
    w.users = users
    w.campaign = campaign
    w.elsewhere = elsewhere
    w.membership = {m.user.username: m for m in campaign.memberships.select_related("user")}
    w.ada = make_character(
        campaign, users["player"], character_choices("Ada", "4D", "3D+1", character_points=3)
    )
    w.bo = make_character(campaign, users["other_player"], character_choices("Bo", "3D", "2D+2"))
    return w


@pytest.fixture
def running(d6):
    """A started Method 2 encounter: Ada, Bo and a group of two thugs."""
    from systems.d6 import services

    encounter = services.create_encounter(
        d6.campaign, d6.users["gm"], name="Dockside", method="once_per_scene"
    )
    services.add_character(encounter, d6.ada.pk)
    services.add_character(encounter, d6.bo.pk)
    services.add_npc(
        encounter,
        {
            "kind": "group",
            "name": "Thugs",
            "members": ["Thug 1", "Thug 2"],
            "attributes": {"Perception": "2D+1", "Reflexes": "3D"},
            "skills": {"brawling": {"attribute": "Reflexes", "code": "4D+2"}},
        },
    )
    return services.start_encounter(encounter)
