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
        services.record_roll(
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
