"""What bench/pages.py and bench/load.py measure: one seeded campaign and one list of targets.

Needs Django set up (pages.py does it in-process; load.py runs ``seed`` through ``manage.py shell``).
"""

from __future__ import annotations

import json
import random
import uuid


def seed(prefix: str = "bench") -> dict:
    """A player's TIMEMASTER campaign with five missions, 200 rolls and a finished agent whose sheet
    is rendered once (so asking for it again is the repeat path). Returns the player, the campaign
    and agent ids, and the player's API token."""
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from campaigns import services
    from campaigns.models import Membership, Mission, Role
    from campaigns.table import rolling
    from characters import services as character_services
    from sheets import services as sheet_services
    from sheets.tasks import run_render
    from tests.characters.conftest import agent_choices

    suffix = uuid.uuid4().hex[:8]
    User = get_user_model()
    gm = User.objects.create_user(f"{prefix}-gm-{suffix}", password=f"{prefix}-bench-password")
    player = User.objects.create_user(f"{prefix}-player-{suffix}", password=f"{prefix}-bench-password")
    campaign = services.create_campaign(gm, name=f"{prefix.title()} {suffix}", system="timemaster")
    membership = Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    missions = [Mission.objects.create(campaign=campaign, title=f"Mission {i}") for i in range(5)]
    rng = random.Random(9)
    for i in range(200):
        rolling.record_roll(
            membership, kind="d10", count=3, purpose=f"roll {i}", mission=missions[i % 5], rng=rng
        )
    agent = character_services.finalize(
        character_services.create_draft(
            campaign, player, choices=agent_choices(name=f"{prefix.title()} Agent")
        ),
        is_gm=True,
        rng=random.Random(3),
    )
    render, _ = sheet_services.request_render(player, "character", campaign, membership, agent, "letter")
    assert run_render(render.pk) == "done", "the seed could not render the sheet"
    token = AuthToken.objects.create(user=player)[1]
    return {"player": player, "campaign": campaign.pk, "agent": agent.pk, "token": token}


def targets(campaign: int, agent: int, *, dice_page: bool = False) -> list[tuple]:
    """(label, method, path, JSON body, expected status, auth: "cookie" or "token")."""
    roll = json.dumps({"kind": "d6", "count": 2, "purpose": "load"})
    sheet = json.dumps({"kind": "character", "character": agent})
    pages = [
        ("page: campaign", "GET", f"/campaigns/{campaign}/", None, 200, "cookie"),
        ("page: character", "GET", f"/characters/{agent}/", None, 200, "cookie"),
    ]
    if dice_page:
        pages.append(("page: dice log", "GET", f"/campaigns/{campaign}/dice/", None, 200, "cookie"))
    return pages + [
        ("api: campaign detail", "GET", f"/api/v1/campaigns/{campaign}/", None, 200, "token"),
        ("api: roll log (200+ rolls)", "GET", f"/api/v1/campaigns/{campaign}/rolls/", None, 200, "token"),
        ("api: POST a roll", "POST", f"/api/v1/campaigns/{campaign}/rolls/", roll, 201, "token"),
        ("api: POST sheet (rendered)", "POST", f"/api/v1/campaigns/{campaign}/sheets/", sheet, 200, "token"),
    ]


def seed_missions(count: int = 50, agents: int = 4, prefix: str = "charts") -> dict:
    """A TIMEMASTER campaign of ``count`` missions played through the services, as a GM plays
    them: agents sent to a new year each time, three to six mistakes (one of them hidden from the
    players), the secret check rolled, every third mission with a correction after closing, all
    published but the last; a regulation offence on every tenth. Returns the GM, a player, the
    campaign id and the last published mission's id."""
    from django.contrib.auth import get_user_model

    from campaigns import missions as mission_services
    from campaigns import services
    from campaigns.models import Membership, Role
    from characters import services as character_services
    from systems.timemaster import missions as tm_missions
    from systems.timemaster.engine import regulations
    from tests.characters.conftest import agent_choices

    suffix = uuid.uuid4().hex[:8]
    User = get_user_model()
    gm = User.objects.create_user(f"{prefix}-gm-{suffix}", password=f"{prefix}-bench-password")
    campaign = services.create_campaign(gm, name=f"{prefix.title()} {suffix}", system="timemaster")
    gm_membership = Membership.objects.get(campaign=campaign, user=gm)
    players, team = [], []
    for n in range(agents):
        player = User.objects.create_user(f"{prefix}-p{n}-{suffix}", password=f"{prefix}-bench-password")
        Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
        draft = character_services.create_draft(campaign, player, choices=agent_choices(name=f"Agent {n}"))
        team.append(character_services.finalize(draft, is_gm=True, rng=random.Random(n)))
        players.append(player)
    rng = random.Random(33)
    last_published = None
    for i in range(count):
        year = 1000 + 3 * i
        mission = mission_services.create_mission(
            campaign,
            {
                "title": f"Mission {i + 1}",
                "parallel": "T-0",
                "place": "Vienna",
                "start_year": year,
                "end_year": year,
                "significance_rating": rng.randint(200, 900),
                "agents": team,
            },
        )
        mission_services.start_mission(mission, gm)
        for k in range(rng.randint(3, 6)):
            kind = rng.choice(("npc_death", "event_changed", "other"))
            tm_missions.record_mistake(
                mission,
                gm,
                {
                    "kind": kind,
                    "rating": rng.randint(5, 160),
                    "description": f"mistake {k}",
                    "shown_to_players": k != 0,
                },
            )
        roll = rng.randint(1, 1000)
        faces = [roll % 1000 // 100, roll % 100 // 10, roll % 10]
        dice = _Faces(faces)
        mission = tm_missions.close_mission(gm_membership, mission, "success", rng=dice)
        if i % 3 == 2:
            first = mission.tally_entries.order_by("id").first()
            tm_missions.reverse_mistake(mission, first.pk, gm, "entered twice")
        if i < count - 1:
            mission = mission_services.publish_mission(mission, gm)
            last_published = mission
        if i % 10 == 9:
            agent = team[(i // 10) % agents]
            agent.refresh_from_db()
            entry = regulations.violation_entry(agent.build, 4, mission=str(mission.pk), note="left a radio")
            character_services.append_entry(agent, entry, gm, mission=mission)
    return {
        "gm": gm,
        "player": players[0],
        "campaign": campaign.pk,
        "mission": last_published.pk if last_published else None,
    }


class _Faces(random.Random):
    """Hands out the given d10 faces (0-9) in order: the significance roll the seed wants."""

    def __init__(self, faces: list[int]):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)
