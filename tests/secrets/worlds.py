"""Two worlds that differ only in what the GM hid (issue 28's non-interference test).

``build(users, variant)`` makes, inside the caller's transaction, a TIMEMASTER campaign and each
installed system's part (its testkit's ``SECRET_WORLD``: Time to Kill's campaign) that every
persona belongs to, with everything a player may see (published
missions, agents, a revealed NPC, open and secret rolls, a running Time to Kill mission, the
player's sheets) and, for every kind of input the GM keeps from the players, a value that
depends on ``variant`` ("A" or "B"):

- a tally line hidden from players (A: a hidden line of 90 with significance S + 90; B: no hidden
  line and significance S; the same roll lies above both totals, so the published verdict and
  award are the same);
- a hidden line reversed after publishing, with the GM's reason (A: one reason, B: another);
- secret rolls: a secret check a player asked for, one the GM made, a secret roll the GM made
  (A: results 17, 17, 17; B: 83, 83, 83), and Time to Kill's Fate dice;
- NPC statistics and notes (a revealed NPC's) and an NPC not revealed (A only);
- a mission closed but not published (A: a success with a tally and its significance check;
  B: a failure with no tally) and a planned mission's significance rating and chart;
- Time to Kill: the GM's notes and the Fates placed (A and B differ);
- GM-only sheet kinds: the Fate Record Sheet and the GM's copy of an after-action report,
  rendered (A only);
- what the audit of the models found besides: an invitation and a campaign export (A only; the
  GM's), a Historical Changes Chart (differs);
- the live feed's events for one member (issue 44): the worker's "sheet finished" of the GM's
  copy of the after-action report and "export ready" of the GM's export (A only: the GM's own).

Rows that exist in one world only are made last, after every row a player sees, so the rows a
player sees get the same ids in both worlds (SQLite hands ids out again after a rollback; random
ids come from a generator seeded the same way for both worlds).
"""

from __future__ import annotations

import random
from typing import Any

from campaigns import fairness, missions, npc_services
from campaigns import services as campaign_services
from campaigns.models import Membership, Role, Webhook
from characters import services as character_services
from characters.models import Character
from systems.timemaster import missions as tm_missions
from tests import system_kit
from tests.campaigns.test_missions import DiceStub, roll_of
from tests.characters.conftest import agent_choices

SECRET_FACES = {"A": [1, 7], "B": [8, 3]}  # a percent roll of 17 or of 83
REASONS = {"A": "The slip happened offstage (secret reason one)", "B": "Counted twice (secret reason two)"}
NPC_STATS = {
    "A": {"abilities": {"STR": 71}, "significance_rating": 40, "gm_notes": "Works for the other side"},
    "B": {"abilities": {"STR": 52}, "significance_rating": 90, "gm_notes": "Loyal to the Corps"},
}
CHARTS = {
    "A": [{"low": 0, "high": 99, "text": "A clock stops early."}, {"low": 100, "high": None, "text": "War."}],
    "B": [
        {"low": 0, "high": 49, "text": "Rain on the parade."},
        {"low": 50, "high": None, "text": "Plague."},
    ],
}


def secret_worlds() -> list[tuple[str, Any]]:
    """(system, module) of each installed system whose testkit names its part of the worlds
    (``SECRET_WORLD``: build(users, variant, members_of), hidden(made, users), scenes(ids, common))."""
    import importlib

    found = []
    for key in system_kit.installed_keys():
        module = getattr(system_kit.extras(key), "SECRET_WORLD", "")
        if module:
            found.append((key, importlib.import_module(module)))
    return found


def _members(campaign, users) -> dict[str, Membership]:
    for name, role in (("player", Role.PLAYER), ("other_player", Role.PLAYER), ("observer", Role.OBSERVER)):
        Membership.objects.create(campaign=campaign, user=users[name], role=role)
    return {m.user.username: m for m in campaign.memberships.select_related("user", "campaign")}


def _agent(campaign, owner, name) -> Character:
    draft = character_services.create_draft(campaign, owner, choices=agent_choices(name=name))
    return character_services.finalize(draft, is_gm=True, rng=random.Random(3))


def _mission(campaign, agents, title, year, significance, chart=None) -> Any:
    mission = missions.create_mission(
        campaign,
        {
            "title": title,
            "briefing": f"The briefing of {title}.",
            "parallel": "T-0",
            "place": "Vienna",
            "start_year": year,
            "end_year": year,
            "significance_rating": significance,
            "historical_changes_chart": chart or CHARTS["A"],
            "agents": agents,
        },
    )
    return mission


def _start(mission, gm):
    missions.start_mission(mission, gm)
    mission.refresh_from_db()
    return mission


def _line(mission, gm, rating, description, shown=True):
    data = {"kind": "other", "rating": rating, "description": description, "shown_to_players": shown}
    return tm_missions.record_mistake(mission, gm, data)


def build(users: dict, variant: str) -> dict[str, Any]:
    """The world of ``variant``; returns the ids the routes are filled with (see scenes())."""
    from sheets import services as sheet_services
    from sheets.tasks import run_render
    from systems.timemaster import action_checks as checks

    a = variant == "A"
    gm = users["gm"]
    tm = campaign_services.create_campaign(gm, name="Time Corps", system="timemaster")
    tm_members = _members(tm, users)
    harry = _agent(tm, users["player"], "Harry Adams")
    ida = _agent(tm, users["other_player"], "Ida Brandt")
    carl = _agent(tm, users["player"], "Carl Dorn")
    vale = npc_services.create_npc(
        tm,
        gm,
        {"name": "Senator Vale", "public_description": "A smiling politician.", "revealed": True}
        | NPC_STATS[variant],
    )
    open_roll = campaign_services.record_roll(tm_members["player"], kind="d6", count=2, rng=random.Random(4))

    # A published mission with a line hidden from players (A) or without it (B): same verdict, award.
    vienna = _start(_mission(tm, [harry], "Vienna", 1805, 790 if a else 700, CHARTS[variant]), gm)
    _line(vienna, gm, 100, "Clock tower burnt")
    _line(vienna, gm, 55, "A witness saw the gate")
    if a:
        _line(vienna, gm, 90, "The GM's own slip", shown=False)
    vienna = tm_missions.close_mission(tm_members["gm"], vienna, "success", rng=roll_of(500))
    missions.publish_mission(vienna, gm)

    # A published mission whose hidden line the GM reverses afterwards, giving a reason.
    paris = _start(_mission(tm, [ida], "Paris", 1789, 700), gm)
    _line(paris, gm, 80, "The carriage was seen")
    hidden = _line(paris, gm, 60, "Spoke to a guard", shown=False)
    paris = tm_missions.close_mission(tm_members["gm"], paris, "success", rng=roll_of(400))
    missions.publish_mission(paris, gm)
    tm_missions.reverse_mistake(paris, hidden.pk, gm, REASONS[variant])

    # A mission in play, to be closed (not published) last; a planned one with the GM's numbers.
    rome = _start(_mission(tm, [carl], "Rome", 44, 300 if a else 900), gm)
    planned = _mission(tm, [], "London", 1851, 120 if a else 880, CHARTS[variant])

    # Secret rolls: the results differ, the rolls are there in both worlds.
    investigation = next(s.key for s in checks.agent_scores(harry) if s.secret)
    asked = checks.roll_check(tm_members["player"], harry, investigation, rng=DiceStub(SECRET_FACES[variant]))
    gm_check = checks.roll_check(tm_members["gm"], harry, investigation, rng=DiceStub(SECRET_FACES[variant]))
    gm_secret = campaign_services.record_roll(
        tm_members["gm"],
        kind="percent",
        secret=True,
        purpose="Does the guard notice?",
        rng=DiceStub(SECRET_FACES[variant]),
    )

    # Fair dice (issue 32): a player's own seed, an open roll and a shared secret roll under seed 1,
    # then rotation; world A adds an unannounced secret roll under seed 2 (last, below).
    fairness.set_client_seed(tm_members["player"], "lucky socks")
    fair_open = campaign_services.record_roll(tm_members["player"], kind="d10", count=3)
    fair_shared = campaign_services.record_roll(tm_members["gm"], kind="percent", secret=True)
    campaign_services.reveal_roll(tm_members["gm"], fair_shared)
    fair_sealed = campaign_services.record_roll(tm_members["gm"], kind="d6", secret=True)
    fairness.rotate(tm_members["gm"])

    # Each installed system's own part (its testkit's SECRET_WORLD): e.g. Time to Kill's running
    # mission whose GM notes and Fates differ.
    parts = {key: module.build(users, variant, _members) for key, module in secret_worlds()}

    # The player's own sheets: the agent's and the published after-action report.
    renders = []
    for kind, character, mission in (("character", harry, None), ("after_action", None, vienna)):
        render, _ = sheet_services.request_render(
            users["player"], kind, tm, tm_members["player"], character, target=mission
        )
        run_render(render.pk)
        renders.append(render.pk)

    # -- what exists in world A only, after everything a player sees ----------------------------
    hidden_ids: dict[str, Any] = {}
    if a:
        _line(rome, gm, 120, "Left a lighter in the forum")
        tm_missions.close_mission(tm_members["gm"], rome, "success", rng=roll_of(700))
        hidden_ids["fair_roll"] = campaign_services.record_roll(
            tm_members["gm"], kind="d1000", secret=True, announced=False, mission=rome
        ).pk
        hidden_ids["npc"] = npc_services.create_npc(
            tm, gm, {"name": "The Shapeshifter", "revealed": False, "significance_rating": 7}
        ).pk
        hidden_ids["renders"] = []
        for key, module in secret_worlds():
            hidden_ids["renders"] += module.hidden(parts[key]["made"], users).get("renders", [])
        gm_report, _ = sheet_services.request_render(gm, "after_action", tm, tm_members["gm"], target=vienna)
        run_render(gm_report.pk)  # the worker tells the GM it is done (a live event for the GM alone)
        hidden_ids["renders"].append(gm_report.pk)
        hidden_ids["invitation"] = campaign_services.create_invitation(tm, gm).pk
        hidden_ids["webhook"] = Webhook.objects.create(campaign=tm, url="https://chat.example.com/h").pk
        from archive.models import CampaignExport
        from archive.tasks import run_export

        hidden_ids["export"] = CampaignExport.objects.create(campaign=tm, requested_by=gm).pk
        run_export(hidden_ids["export"])  # "export ready", for the GM alone
    else:
        tm_missions.close_mission(tm_members["gm"], rome, "failure")
    return {
        "tm": tm.pk,
        "systems": {key: part["ids"] for key, part in parts.items()},
        "characters": [harry.pk, ida.pk, carl.pk],
        "missions": [vienna.pk, paris.pk, rome.pk, planned.pk],
        "npc": vale.pk,
        "rolls": [
            open_roll.pk,
            asked.pk,
            gm_check.pk,
            gm_secret.pk,
            fair_open.pk,
            fair_shared.pk,
            fair_sealed.pk,
        ],
        "renders": renders,
        "entry": harry.entries.order_by("id").values_list("pk", flat=True).first(),
        "tally_entry": hidden.pk,
        "members": [m.pk for m in tm_members.values()],
        "hidden": hidden_ids,
    }
