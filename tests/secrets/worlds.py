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
- a tally line hidden from players that changes the pool (issue 44, finding 13: A: a hidden line
  of 94, B: none, the same significance and roll): the two agents' published awards differ (359
  against 406 each), and those award figures are the one difference the test allows (``AWARDS``;
  docs/secrets.md, "What an award reveals"): nothing else a player gets may differ, not the pool
  (719 against 813) nor the remainder;
- a hidden line reversed after publishing, with the GM's reason (A: one reason, B: another);
- secret rolls: a secret check a player asked for, one the GM made, a secret roll the GM made
  (A: results 17, 17, 17; B: 83, 83, 83), and Time to Kill's Fate dice;
- NPC statistics and notes (a revealed NPC's) and an NPC not revealed (A only);
- TIMEMASTER's NPC condition (the revealed NPC's wounds: A and B differ) and which NPC a logged
  roll fell on (A only);
- a mission closed but not published (A: a success with a tally and its significance check;
  B: a failure with no tally) and a planned mission's significance rating and chart;
- Time to Kill: the GM's notes and the Fates placed (A and B differ);
- GM-only sheet kinds: the Fate Record Sheet and the GM's copy of an after-action report,
  rendered (A only);
- what the audit of the models found besides: an invitation and a campaign export (A only; the
  GM's), a Historical Changes Chart (differs);
- the live feed's events for one member (issue 44): the worker's "sheet finished" of the GM's
  copy of the after-action report and "export ready" of the GM's export (A only: the GM's own);
- play sessions and notes (issue 50): a session played through everything above and ended, and
  one under way; a shared note mentioning a revealed NPC, the hidden NPC (which exists in A
  only), an agent and a mission; a GM-only note (its text and mentions differ; A has a second,
  made last) and a private note of a player who reads nothing here (differs; A has a second);
  the session pages gather A's hidden rolls, close and prints as well, and the walk reads the
  evening's recap (the overview's, its handout) and the campaign's timeline for every reader.

Rows that exist in one world only are made last, after every row a player sees, so the rows a
player sees get the same ids in both worlds (SQLite hands ids out again after a rollback; random
ids come from a generator seeded the same way for both worlds).
"""

from __future__ import annotations

import random
from typing import Any

from campaigns import missions, npc_services
from campaigns import services as campaign_services
from campaigns.chronicle import notes, play_sessions
from campaigns.models import Membership, Note, NoteVisibility, Role, Webhook
from campaigns.table import fairness, rolling
from characters import services as character_services
from characters.models import Character
from systems.timemaster import missions as tm_missions
from systems.timemaster import npc_condition_services
from systems.timemaster.models import AttackedNPC
from tests import system_kit
from tests.campaigns.test_missions import DiceStub, roll_of
from tests.characters.conftest import agent_choices

SECRET_FACES = {"A": [1, 7], "B": [8, 3]}  # a percent roll of 17 or of 83
GM_NOTES = {
    "A": "The senator is [[Senator Vale]]'s twin; [[Harry Adams]] must not know.",
    "B": "Nothing to hide about [[Carl Dorn]] this week.",
}
DIARIES = {"A": "I think the senator lies.", "B": "Remember to buy dice."}
REASONS = {"A": "The slip happened offstage (secret reason one)", "B": "Counted twice (secret reason two)"}
NPC_STATS = {
    "A": {
        "abilities": {"STR": 71, "STA": 64},
        "significance_rating": 40,
        "gm_notes": "Works for the other side",
    },
    "B": {"abilities": {"STR": 52, "STA": 48}, "significance_rating": 90, "gm_notes": "Loyal to the Corps"},
}
#: Berlin: significance 913, a shown line of 100 and, in world A, a hidden line of 94, two agents:
#: pool 719 (A) or 813 (B), split equally, rounded down (ruling 2). The awards are the declared
#: difference between the worlds; build() checks the outcome gives exactly these.
BERLIN_HIDDEN = {"A": 94, "B": None}
AWARDS = {"A": 359, "B": 406}
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


#: The system whose rows the platform's own world is built of (its campaign "Time Corps" is
#: TIMEMASTER's); every other installed system brings its part (SECRET_WORLD).
BUILT_IN = "timemaster"


def unwalked_models() -> list[str]:
    """The models of the installed systems' apps that hold no row in the world just built: play
    records the walk never reads, so no hidden value of theirs is ever compared. A system whose
    play keeps nothing from the players says so in its testkit (``NOTHING_HIDDEN``: why)."""
    from django.apps import apps

    empty = []
    for key in system_kit.installed_keys():
        if getattr(system_kit.extras(key), "NOTHING_HIDDEN", ""):
            continue
        config = next(c for c in apps.get_app_configs() if c.name == system_kit.app(key).package)
        empty += [f"{key}: {m._meta.label}" for m in config.get_models() if not m.objects.exists()]
    return empty


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


def _fight(gm_membership, attacker, defender) -> dict[str, Any]:
    """An attack on an unrevealed guard (a called hold made on a C) and an NPC's hit on an agent,
    both open rolls: the ids of the guard, its damage entry and the hold (issue 49)."""
    from systems.timemaster import attacks
    from systems.timemaster.models import FightState, NPCConditionEntry
    from tests.campaigns.test_checks import Faces

    guard = npc_services.create_npc(
        gm_membership.campaign,
        gm_membership.user,
        {"name": "Gate Guard", "quick": True, "kind": "human", "significance_rating": 2},
    )
    hold = attacks.Attack(
        form="melee",
        results_key="unarmed",
        attacker=attacker,
        attacker_score="other:unskilled_melee",
        defender_npc=guard,
        situation={"surprised": True},
        called_hold="hold",
    )
    roll, _ = attacks.resolve(gm_membership, hold, Faces(0, 1, 1, 1, 1, 2, 0))
    blow = attacks.Attack(form="melee", strike_base=200, defender=defender)
    attacks.resolve(gm_membership, blow, Faces(5, 0, 1, 1, 1, 3, 0, 3, 0))
    return {
        "guard": guard,
        "damage": NPCConditionEntry.objects.get(npc=guard, roll=roll).pk,
        "hold": FightState.objects.get(roll=roll, kind="hold").pk,
    }


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
    # A player who reads nothing in the test: their private notes are an input no reader may see.
    diarist = type(gm).objects.create_user("diarist", password="a-long-test-password")
    Membership.objects.create(campaign=tm, user=diarist, role=Role.PLAYER)
    # The evening's play session (issue 50): everything below happens during it.
    evening = play_sessions.start(tm_members["gm"], title="The Vienna evening")
    harry = _agent(tm, users["player"], "Harry Adams")
    ida = _agent(tm, users["other_player"], "Ida Brandt")
    carl = _agent(tm, users["player"], "Carl Dorn")
    dora = _agent(tm, users["player"], "Dora Engel")
    emil = _agent(tm, users["other_player"], "Emil Falk")
    vale = npc_services.create_npc(
        tm,
        gm,
        {"name": "Senator Vale", "public_description": "A smiling politician.", "revealed": True}
        | NPC_STATS[variant],
    )
    open_roll = rolling.record_roll(tm_members["player"], kind="d6", count=2, rng=random.Random(4))

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

    # A published mission whose hidden line (A only) changes the pool, and so the awards: the
    # declared difference (AWARDS). The hidden line is the last tally line a player's world holds.
    berlin = _start(_mission(tm, [dora, emil], "Berlin", 1936, 913), gm)
    _line(berlin, gm, 100, "A newspaper photograph")
    if BERLIN_HIDDEN[variant]:
        _line(berlin, gm, BERLIN_HIDDEN[variant], "The GM's second slip", shown=False)
    berlin = tm_missions.close_mission(tm_members["gm"], berlin, "success", rng=roll_of(600))
    assert [a["regular"] for a in berlin.outcome["awards"]] == [AWARDS[variant]] * 2, berlin.outcome
    missions.publish_mission(berlin, gm)

    # A mission in play, to be closed (not published) last; a planned one with the GM's numbers.
    rome = _start(_mission(tm, [carl], "Rome", 44, 300 if a else 900), gm)
    planned = _mission(tm, [], "London", 1851, 120 if a else 880, CHARTS[variant])

    # Secret rolls: the results differ, the rolls are there in both worlds.
    investigation = next(s.key for s in checks.agent_scores(harry) if s.secret)
    asked = checks.roll_check(tm_members["player"], harry, investigation, rng=DiceStub(SECRET_FACES[variant]))
    gm_check = checks.roll_check(tm_members["gm"], harry, investigation, rng=DiceStub(SECRET_FACES[variant]))
    gm_secret = rolling.record_roll(
        tm_members["gm"],
        kind="percent",
        secret=True,
        purpose="Does the guard notice?",
        rng=DiceStub(SECRET_FACES[variant]),
    )

    # Fair dice (issue 32): a player's own seed, an open roll and a shared secret roll under seed 1,
    # then rotation; world A adds an unannounced secret roll under seed 2 (last, below).
    fairness.set_client_seed(tm_members["player"], "lucky socks")
    fair_open = rolling.record_roll(tm_members["player"], kind="d10", count=3)
    fair_shared = rolling.record_roll(tm_members["gm"], kind="percent", secret=True)
    rolling.reveal_roll(tm_members["gm"], fair_shared)
    fair_sealed = rolling.record_roll(tm_members["gm"], kind="d6", secret=True)
    fairness.rotate(tm_members["gm"])

    # Each installed system's own part (its testkit's SECRET_WORLD): e.g. Time to Kill's running
    # mission whose GM notes and Fates differ.
    parts = {key: module.build(users, variant, _members) for key, module in secret_worlds()}

    # The player's own sheets: the agent's and the published after-action report.
    renders = []
    for kind, character, mission in (
        ("character", harry, None),
        ("after_action", None, vienna),
        ("character", dora, None),  # the export inside it holds the Berlin award (issue 44)
        ("after_action", None, berlin),
    ):
        render, _ = sheet_services.request_render(
            users["player"], kind, tm, tm_members["player"], character, target=mission
        )
        run_render(render.pk)
        renders.append(render.pk)

    # TIMEMASTER's NPC condition in a fight (GM only): the revealed NPC's wounds differ.
    npc_condition_services.record(
        vale, tm_members["gm"], "damage_taken", {"stamina": 9 if a else 4, "wounds": 1 if a else 0}
    )
    # An open fight (issue 49): Carl's called hold on a guard the players never met (a C: damage
    # and the hold, the GM's records), and an NPC's blow on Emil (his ledger, the entry linked to
    # the roll). World A reverts the guard's damage and the hold last (below): the GM's log marks
    # the line, the players' lines stay as they were.
    fight = _fight(tm_members["gm"], carl, emil)

    # The session's notes, then its end (no end choices) and the next session, under way.
    def note(author, body, visibility=NoteVisibility.SHARED, title=""):
        made = Note(
            campaign=tm, play_session=evening, author=author, body=body, visibility=visibility, title=title
        )
        return notes.save_note(made).pk

    shared_note = note(
        gm,
        "We met [[Senator Vale]] and [[The Shapeshifter]]; [[Harry Adams]] closed [[Vienna]].",
        title="Recap",
    )
    players_note = note(users["player"], "My own reminder: [[Ida Brandt]] owes me.", NoteVisibility.PRIVATE)
    gm_note = note(gm, GM_NOTES[variant], NoteVisibility.GM, title="Plot")
    diary = note(diarist, DIARIES[variant], NoteVisibility.PRIVATE, title="Diary")
    play_sessions.end(tm_members["gm"], evening)
    play_sessions.start(tm_members["gm"], title="The Paris evening")

    # -- what exists in world A only, after everything a player sees ----------------------------
    hidden_ids: dict[str, Any] = {}
    if a:
        # The GM's own log names the NPC the player's open roll fell on (systems.timemaster
        # AttackedNPC); a player's log never does.
        AttackedNPC.objects.create(roll=open_roll, npc=vale)
        _line(rome, gm, 120, "Left a lighter in the forum")
        tm_missions.close_mission(tm_members["gm"], rome, "success", rng=roll_of(700))
        hidden_ids["fair_roll"] = rolling.record_roll(
            tm_members["gm"], kind="d1000", secret=True, announced=False, mission=rome
        ).pk
        hidden_ids["npc"] = npc_services.create_npc(
            tm, gm, {"name": "The Shapeshifter", "revealed": False, "significance_rating": 7}
        ).pk
        # a fight the GM keeps (issue 49): Harry holds the senator, the Shapeshifter is down
        from systems.timemaster.models import FightState

        FightState.objects.create(
            campaign=tm,
            kind="strangle",
            defender_npc=vale,
            holder=harry,
            holder_name=harry.name,
            since_round=2,
        )
        hidden_ids["fight_state"] = FightState.objects.create(
            campaign=tm, kind="down", defender_npc_id=hidden_ids["npc"], since_round=3
        ).pk
        # the GM reverts what Carl's hold did to the guard (its damage, the hold): GM-only changes
        npc_condition_services.revert(fight["guard"], tm_members["gm"], fight["damage"])
        from systems.timemaster import fight_states

        fight_states.revert(tm_members["gm"], fight["hold"])
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
        # the notes only the GM and their authors read, last (their random ids, no live event)
        hidden_ids["notes"] = [
            note(gm, "[[The Shapeshifter]] strikes at [[Paris]].", NoteVisibility.GM),
            note(diarist, "A second diary page.", NoteVisibility.PRIVATE),
        ]
    else:
        tm_missions.close_mission(tm_members["gm"], rome, "failure")
    return {
        "tm": tm.pk,
        "systems": {key: part["ids"] for key, part in parts.items()},
        "characters": [harry.pk, ida.pk, carl.pk, dora.pk, emil.pk],
        "missions": [vienna.pk, paris.pk, berlin.pk, rome.pk, planned.pk],
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
        "award_renders": renders[2:],  # Dora's sheet and the Berlin report: each holds an award
        "entry": harry.entries.order_by("id").values_list("pk", flat=True).first(),
        "tally_entry": hidden.pk,
        "members": [m.pk for m in tm_members.values()],
        "play_sessions": [1, 2],
        "notes": [shared_note, players_note],
        "hidden_notes": [gm_note, diary],
        "hidden": hidden_ids,
    }
