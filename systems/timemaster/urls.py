"""Web pages of TIMEMASTER: missions (tally, close, publish, report, audit), advancement, and the
checks and attacks of the dice page."""

from django.urls import path

import campaigns.urls  # noqa: F401  (registers "id": ids that fit 64 bits, longer ones 404)
import characters.urls  # noqa: F401  (registers "chid", the same for character ids)
from systems.timemaster import (
    advancement_views,
    attack_views,
    check_views,
    condition_views,
    npc_condition_views,
)
from systems.timemaster import mission_views as mv

MISSION = "campaigns/<id:pk>/missions/<id:mission_pk>/"
urlpatterns: list = [
    path("campaigns/<id:pk>/dice/check/", check_views.dice_check, name="campaign-dice-check"),
    path("campaigns/<id:pk>/dice/attack/", attack_views.dice_attack, name="campaign-dice-attack"),
    path("campaigns/<id:pk>/dice/hold/", attack_views.dice_hold, name="campaign-dice-hold"),
    path("campaigns/<id:pk>/dice/special/", attack_views.dice_special, name="campaign-dice-special"),
    *(
        path(
            f"campaigns/<id:pk>/dice/fight/<id:state_pk>/{action}/",
            attack_views.dice_fight_state,
            {"action": action},
            name=f"campaign-dice-fight-{action}",
        )
        for action in ("end", "reopen", "revert")
    ),
    path(
        "campaigns/<id:pk>/npcs/<id:npc_pk>/condition/<id:entry_pk>/revert/",
        npc_condition_views.npc_condition_revert,
        name="timemaster-npc-condition-revert",
    ),
    path("campaigns/<id:pk>/missions/", mv.mission_list, name="missions-list"),
    path("campaigns/<id:pk>/missions/new/", mv.mission_create, name="missions-new"),
    path("campaigns/<id:pk>/missions/audit/", mv.campaign_mission_audit, name="missions-campaign-audit"),
    path(MISSION, mv.mission_detail, name="missions-detail"),
    path(f"{MISSION}edit/", mv.mission_edit, name="missions-edit"),
    path(f"{MISSION}delete/", mv.mission_delete, name="missions-delete"),
    path(f"{MISSION}start/", mv.mission_start, name="missions-start"),
    path(f"{MISSION}tally/", mv.mission_tally, name="missions-tally"),
    path(f"{MISSION}tally/<id:entry_pk>/reverse/", mv.mission_reverse, name="missions-reverse"),
    path(f"{MISSION}tally/<id:entry_pk>/shown/", mv.mission_entry_shown, name="missions-shown"),
    path(f"{MISSION}close/", mv.mission_close, name="missions-close"),
    path(f"{MISSION}publish/", mv.mission_publish, name="missions-publish"),
    path(f"{MISSION}report/", mv.mission_report, name="missions-report"),
    path(f"{MISSION}audit/", mv.mission_audit, name="missions-audit"),
    path("characters/<chid:pk>/shop/", advancement_views.shop, name="character-shop"),
    path("characters/<chid:pk>/shop/buy/", advancement_views.shop_buy, name="character-shop-buy"),
    path("characters/<chid:pk>/shop/undo/", advancement_views.shop_undo, name="character-shop-undo"),
    path("characters/<chid:pk>/free-pick/", advancement_views.free_pick, name="character-free-pick"),
    path("characters/<chid:pk>/violations/new/", advancement_views.violation, name="character-violation"),
    path("characters/<chid:pk>/bonus/", advancement_views.bonus, name="character-bonus"),
    path("characters/<chid:pk>/condition/", condition_views.record_condition, name="character-condition"),
]
