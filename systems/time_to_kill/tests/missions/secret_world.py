"""Time to Kill's part of the non-interference worlds (tests/secrets/worlds.py, found through the
system's testkit.SECRET_WORLD): a running mission whose GM notes and placed Fates differ between
world A and world B, and its Fate Record Sheet (the GM's), rendered in world A only."""

from __future__ import annotations

from characters.models import Character
from characters.systems import fair_dice
from systems.time_to_kill.tests.missions.conftest import ninja_build
from systems.time_to_kill.tests.missions.helpers import ScriptedRng

PLACEMENTS = {
    "A": {"opposition": "-", "concealment": "0", "terrain": "+", "circumstance": "0"},
    "B": {"opposition": "+", "concealment": "-", "terrain": "0", "circumstance": "+"},
}
FATE_DICE = {"A": [-1, 0, 1, 0], "B": [1, -1, 0, 1]}
GM_NOTES = {"A": "The abbot keeps the key under the bell", "B": "The key is in the river"}


def build(users, variant: str, members_of) -> dict:
    """The rows a player sees (the same in both worlds but for what the GM keeps): ``ids`` for the
    walk, ``made`` for ``hidden``."""
    from campaigns import services as campaign_services
    from systems.time_to_kill import services as ttk_services

    ttk = campaign_services.create_campaign(users["gm"], name="Night Work", system="time_to_kill")
    members = members_of(ttk, users)
    build_doc = ninja_build()
    kage = Character.objects.create(
        campaign=ttk,
        owner=users["player"],
        system="time_to_kill",
        name="Kage",
        status="active",
        build=build_doc,
        creation_build=build_doc,
        revision=1,
    )
    run = ttk_services.start_run(
        members["gm"],
        ninja=kage.pk,
        title="The Bell Tower",
        mission_stones=3,
        briefing={"victory_conditions": "Silence the abbot", "gm_notes": GM_NOTES[variant]},
    )
    rng = ScriptedRng(draws=["o"], fudge=FATE_DICE[variant])
    original = ttk_services.make_rng, fair_dice.FairRandom
    ttk_services.make_rng = lambda: rng  # the stone draws
    fair_dice.FairRandom = lambda key: rng  # the Fate dice, rolled on the fair dice stream
    try:
        for side, move, data in (
            ("player", "prepare_draw", {}),
            ("player", "end_preparation", {}),
            ("gm", "roll_fates", {}),
            ("gm", "assign_fates", {"fates": PLACEMENTS[variant]}),
        ):
            user = users["gm"] if side == "gm" else users["player"]
            ttk_services.post_event(run, user, side, {"type": move, **data})
            run.refresh_from_db()
    finally:
        ttk_services.make_rng, fair_dice.FairRandom = original
    return {
        "ids": {"campaign": ttk.pk, "character": kage.pk, "run": run.pk},
        "made": {"campaign": ttk, "gm": members["gm"], "run": run},
    }


def hidden(made: dict, users) -> dict:
    """World A only, after every row a player sees: the Fate Record Sheet (GM only)."""
    from sheets import services as sheet_services

    fate_record, _ = sheet_services.request_render(
        users["gm"], "fate_record", made["campaign"], made["gm"], target=made["run"]
    )
    return {"renders": [fate_record.pk]}


def scenes(ids: dict, common: dict) -> list[dict]:
    """What a reader might name in this system's campaign: the ninja and the run."""
    return [{**common, **ids}]
