"""Writes on Time to Kill mission runs: starting a run, applying an event, and the ledger entry of
a finished mission. The rules are the engine's (systems/time_to_kill/engine/mission.py); this
module stores what it returns and never decides a rule itself.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import Campaign, Membership, Mission
from campaigns.table import live
from campaigns.table.rolling import record_roll
from characters import services as character_services
from characters.models import Character
from characters.systems import RuleError
from characters.systems.dice import FUDGE_FACES, system_rng
from characters.systems.wording import possessive
from kernel.errors import Conflict
from systems.time_to_kill.engine import (
    apply_event,
    fate_record_sheet,
    gm_view,
    mission_result_entry,
    new_mission,
    player_view,
    replay,
)
from systems.time_to_kill.engine.mission import whose_move
from systems.time_to_kill.engine.tables import FATE_DICE, GM, MAX_LONG_TEXT, MAX_TEXT
from systems.time_to_kill.models import MissionEvent, MissionRun

SYSTEM_KEY = "time_to_kill"
#: Event fields a client may send; "by" comes from who is logged in and "results" from the engine.
EVENT_FIELDS = (
    "type",
    "fate",
    "fates",
    "justification",
    "text",
    "rushed",
    "ability",
    "objective",
    "description",
)
BRIEFING_FIELDS = ("brief", "victory_conditions", "escape_required", "gm_notes")


ABANDONED = "abandoned"
ABANDONED_LABEL = "Abandoned by the GM (no result for the ninja)"


class StaleMove(Conflict):
    """The run moved on since the page was drawn (another tab, the other side, a double click)."""


def make_rng() -> random.Random:
    """Where the engine's draws and dice come from. Tests replace this to script a mission."""
    return system_rng()


def rule_error(error: RuleError, prefix: str = "") -> ValidationError:
    return character_services.violations_error(error.violations, prefix)


# -- starting a run ----------------------------------------------------------------------------
def _ninja_for(campaign: Campaign, ninja_id: Any) -> Character:
    try:
        ninja_id = int(ninja_id)
    except (TypeError, ValueError):
        raise ValidationError({"ninja": ["Choose a ninja of this campaign."]}) from None
    ninja = Character.objects.filter(pk=ninja_id, campaign=campaign).first()
    if ninja is None:
        raise ValidationError({"ninja": ["Choose a ninja of this campaign."]})
    if ninja.is_draft:
        raise ValidationError({"ninja": [f"{ninja.name} is still a draft; finish the ninja first."]})
    return ninja


def _mission_for(campaign: Campaign, mission_id: Any) -> Mission | None:
    if mission_id in (None, ""):
        return None
    try:
        mission_id = int(mission_id)
    except (TypeError, ValueError):
        raise ValidationError({"mission": ["Choose a mission of this campaign, or none."]}) from None
    mission = Mission.objects.filter(pk=mission_id, campaign=campaign).first()
    if mission is None:
        raise ValidationError({"mission": ["Choose a mission of this campaign, or none."]})
    return mission


def start_run(
    membership: Membership,
    *,
    ninja: Any,
    title: Any = "",
    mission: Any = None,
    mission_stones: Any = None,
    briefing: Any = None,
) -> MissionRun:
    """A new run for one ninja of the GM's campaign: the engine's starting state (§B1, ruling 6).
    ``mission_stones`` overrides the campaign's mission length for this run."""
    campaign = membership.campaign
    if not membership.is_gm:
        raise ValidationError({"campaign": ["Only the game master starts a mission."]})
    if campaign.system != SYSTEM_KEY:
        raise ValidationError({"campaign": ["Mission runs are for Time to Kill campaigns."]})
    if not isinstance(title, str) or len(title) > MAX_TEXT:
        raise ValidationError({"title": [f"The title is text of at most {MAX_TEXT} characters."]})
    settings = dict(campaign.settings or {})
    if mission_stones not in (None, ""):
        settings["mission_stones"] = mission_stones
    if briefing is not None and not isinstance(briefing, dict):
        raise ValidationError({"briefing": ["The briefing must be an object."]})
    with transaction.atomic():
        locked_ninja = Character.objects.select_for_update().filter(pk=_ninja_for(campaign, ninja).pk).get()
        linked = _mission_for(campaign, mission)
        if MissionRun.objects.filter(ninja=locked_ninja, status=MissionRun.Status.RUNNING).exists():
            raise ValidationError(
                {"ninja": [f"{locked_ninja.name} is already on a mission; finish it first."]}
            )
        try:
            state = new_mission(
                [{"id": str(locked_ninja.pk), "build": locked_ninja.build}], settings, briefing=briefing
            )
        except RuleError as error:
            raise rule_error(_rename_fields(error)) from None
        title = title.strip() or (linked.title if linked else f"{possessive(locked_ninja.name)} mission")
        return MissionRun.objects.create(
            campaign=campaign,
            mission=linked,
            ninja=locked_ninja,
            title=title[:MAX_TEXT],
            initial_state=state,
            state=state,
            created_by=membership.user,
        )


def _rename_fields(error: RuleError) -> RuleError:
    """Engine field names of new_mission in the terms of our request (settings.x -> x, ninjas.0 -> ninja)."""
    from characters.systems.base import RuleViolation

    renamed = []
    for v in error.violations:
        field = v.field
        if field.startswith("settings."):
            field = field.removeprefix("settings.")
        elif field.startswith("ninjas"):
            field = "ninja"
        renamed.append(RuleViolation(field, v.message, v.rule))
    return RuleError(renamed)


# -- moves -------------------------------------------------------------------------------------
def clean_event(data: Any) -> dict[str, Any]:
    """The client's event: a type and its parameters, nothing the server decides."""
    if not isinstance(data, dict):
        raise ValidationError({"event": ["An event is an object with a type."]})
    unknown = sorted(str(k) for k in data if k not in EVENT_FIELDS)
    if unknown:
        raise ValidationError(
            {
                unknown[0]: [
                    f"Unknown event fields: {', '.join(unknown)}. Draws and dice are made by the server."
                ]
            }
        )
    for key in ("justification", "text", "description"):
        value = data.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > MAX_LONG_TEXT):
            raise ValidationError({key: [f"Text of at most {MAX_LONG_TEXT} characters."]})
    return {key: data[key] for key in EVENT_FIELDS if key in data}


def engine_side(run: MissionRun, side: str) -> str:
    """The engine's name for a side: "gm" or the ninja's id."""
    return GM if side == "gm" else run.ninja_id_in_engine


def post_event(
    run: MissionRun,
    user,
    side: str,
    data: Any,
    expected_count: Any = None,
    rng: random.Random | None = None,
) -> MissionEvent:
    """Apply one event for ``side`` ("gm" or "player") through the engine, under a row lock so two
    requests cannot both move from the same state. A finished mission goes into the ninja's ledger.
    ``rng``: scripted results (the demo's finished runs, manage.py seed_demo): the stone draws and
    the dice come from it and go to the log without a fair-dice proof, as TIMEMASTER's demo closes
    its missions; no page or API passes one."""
    event = clean_event(data)
    with transaction.atomic():
        locked = MissionRun.objects.select_for_update().select_related("ninja", "campaign").get(pk=run.pk)
        if expected_count not in (None, ""):
            try:
                expected = int(expected_count)
            except (TypeError, ValueError):
                raise ValidationError(
                    {"after": ["'after' is the number of events the page was drawn with."]}
                ) from None
            if expected != locked.event_count:
                raise StaleMove(
                    {
                        "after": [
                            "The mission has moved on since this page was drawn; look again before moving."
                        ]
                    }
                )
        if locked.status != MissionRun.Status.RUNNING:
            raise ValidationError({"status": ["This mission is over; no further moves are accepted."]})
        state = locked.state
        dice = _FairDice(rng or make_rng(), locked, user, event.get("type"), state["turn"], scripted=rng)
        try:
            new_state = apply_event(state, {**event, "by": engine_side(locked, side)}, dice)
        except RuleError as error:
            raise rule_error(error) from None
        recorded = new_state["events"][-1]
        added = new_state["log"][len(state["log"]) :]
        locked.event_count += 1
        row = MissionEvent.objects.create(
            run=locked,
            seq=locked.event_count,
            event=recorded,
            by_role="gm" if side == "gm" else "player",
            actor=user,
            public_log=[line["public"] for line in added],
            gm_log=[line["gm"] for line in added],
        )
        locked.state = new_state
        locked.status = new_state["status"]
        locked.outcome = new_state["outcome"] or ""
        if new_state["status"] == "over":
            entry = mission_result_entry(new_state, mission=locked.pk)
            locked.result_entry = character_services.append_entry(
                locked.ninja,
                entry,
                user,
                mission=locked.mission,
                reason=f"Time to Kill mission: {locked.title}",
            )
        locked.save()
        live.publish_change(locked.campaign_id, live.topic_of("ttk-run", locked.pk))
    for name in ("state", "status", "outcome", "event_count", "result_entry_id"):
        setattr(run, name, getattr(locked, name))
    return row


def abandon_run(run: MissionRun, membership: Membership) -> MissionRun:
    """The GM stops a run that will not be finished (a group that broke up, a test run). No rule
    decides anything: the ninja's ledger gets no entry, and the ninja is free for another mission."""
    if not membership.is_gm or membership.campaign_id != run.campaign_id:
        raise ValidationError({"run": ["Only the game master of this campaign can abandon a mission."]})
    with transaction.atomic():
        locked = MissionRun.objects.select_for_update().get(pk=run.pk)
        if locked.status != MissionRun.Status.RUNNING:
            raise Conflict({"status": ["This mission is already over."]})
        locked.status = MissionRun.Status.OVER
        locked.outcome = ABANDONED
        locked.save(update_fields=["status", "outcome", "updated_at"])
        live.publish_change(locked.campaign_id, live.topic_of("ttk-run", locked.pk))
    run.status, run.outcome = locked.status, locked.outcome
    return run


class _FairDice(random.Random):
    """The engine's random source for one event: its dice (the GM's four Fudge dice, the ninja's
    d6) are rolled on the campaign's fair dice and logged as they are rolled, so every die of a
    turn can be recomputed once the seed is revealed (docs/fair-dice.md); the stone draws come
    from ``stones`` (a draw from the bag is no die, and the bag's content is the GM's)."""

    def __init__(
        self,
        stones: random.Random,
        run: MissionRun,
        user,
        event_type: Any,
        turn: int,
        scripted: random.Random | None = None,
    ):
        super().__init__(0)
        self.stones, self.run, self.turn = stones, run, turn
        self.scripted = scripted  # the dice too, when scripted (post_event's rng); else the fair dice
        self.event_type = str(event_type or "").replace("_", " ")
        self.membership = Membership.objects.get(campaign=run.campaign_id, user=user)
        self.fudge: list[int] = []

    def randrange(self, start, stop=None, step=1):  # type: ignore[override]
        return self.stones.randrange(start, stop, step)

    def choice(self, seq):
        if tuple(seq) != FUDGE_FACES:
            return self.stones.choice(seq)
        if not self.fudge:  # the Fate roll: four Fudge dice in one secret roll, the GM's (§B2)
            roll = record_roll(
                self.membership,
                kind="fudge",
                count=FATE_DICE,
                purpose=f"Fate dice, turn {self.turn}: {self.run.title}"[:200],
                secret=True,
                mission=self.run.mission,
                rng=self.scripted,
            )
            self.fudge = list(roll.faces)
        return self.fudge.pop(0)

    def randint(self, a: int, b: int) -> int:
        if (a, b) != (1, 6):
            return self.stones.randint(a, b)
        roll = record_roll(  # the action's d6 (or its re-roll), open to the table (§B6 Step 4)
            self.membership,
            kind="d6",
            purpose=f"{possessive(self.run.ninja.name)} action ({self.event_type}): {self.run.title}"[:200],
            mission=self.run.mission,
            character=self.run.ninja,
            rng=self.scripted,
        )
        return roll.total


# -- reading -----------------------------------------------------------------------------------
def player_state(run: MissionRun) -> dict[str, Any]:
    """What the ninja's player (and any member) may see of the run: the engine's player view."""
    return player_view(run.state, run.ninja_id_in_engine)


def gm_state(run: MissionRun) -> dict[str, Any]:
    return gm_view(run.state)


def fate_record_sheet_for_run(run: MissionRun) -> dict[str, Any]:
    """GM-only: the Fate Record Sheet data of the run's current turn (for pages and the printed sheet)."""
    return fate_record_sheet(run.state)


def state_after(run: MissionRun, count: int, events: list[MissionEvent] | None = None) -> dict[str, Any]:
    """The state after the first ``count`` events, replayed from the stored log (no dice rolled)."""
    if events is None:
        events = list(run.events.order_by("seq")[:count])
    try:
        return replay(run.initial_state, [e.event for e in events[:count]])
    except RuleError as error:
        raise rule_error(error) from None


def whose_side(run: MissionRun) -> str | None:
    mover = whose_move(run.state)
    if mover is None:
        return None
    return "gm" if mover == GM else "player"
