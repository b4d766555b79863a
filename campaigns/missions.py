"""Missions every game system shares: the record (a title, a briefing and the fields a system
adds), planning, starting, deleting, publishing, and the tally lines' storage as each reader may
see it. Each public function is one transaction; functions that change a mission lock its row
first, so two game masters acting at once get exactly one effect and a clear refusal for the other.

A system with mission rules (``SystemApp.missions``: its folder's ``missions`` module by
convention) fills the hooks below: it checks the fields it adds, starts the mission (whatever the
trip writes to its characters), and writes what publishing gives them. A system without rules
keeps a title and a briefing only. What a system does between starting and publishing (its tally,
its check, closing) lives in its own folder.

The rules module offers: ``PLAN_FIELDS`` (fixed once the mission starts) and ``OPEN_FIELDS``
(fixed once it closes), each among ``SYSTEM_FIELDS``; ``clean_plan(campaign, data) -> data``;
``check_plan(mission, entries, agents)``; ``start(mission, by) -> warnings`` and
``publish(mission, by)`` on the locked mission; ``verdict_label(outcome) -> str``;
``after_action(mission, user, is_gm) -> record | None``. Each raises ValidationError naming the
field that is wrong.
"""

from __future__ import annotations

from types import ModuleType

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import Mission, Roll, SignificanceEntry
from campaigns.table import fairness, live, rolllog, webhooks
from characters import registry

NON_FIELD = "non_field_errors"
#: What every mission keeps, whatever its system.
ALWAYS_FIELDS = ("title", "briefing")
#: The Mission fields a system's rules may fill (its PLAN_FIELDS and OPEN_FIELDS).
SYSTEM_FIELDS = (
    "parallel",
    "place",
    "start_year",
    "end_year",
    "agents",
    "significance_rating",
    "historical_changes_chart",
)
NO_RULES = "This campaign's game system keeps a mission's title and briefing only."


def _error(field: str, message: str) -> ValidationError:
    return ValidationError({field: [message]})


def rules_for(campaign) -> ModuleType | None:
    """The mission rules of the campaign's system (SystemApp.missions), or None."""
    app = registry.get(campaign.system)
    return app.mission_rules() if app is not None else None


def _rules_or_refuse(campaign) -> ModuleType:
    rules = rules_for(campaign)
    if rules is None:
        raise _error(NON_FIELD, NO_RULES)
    return rules


def announce(mission: Mission) -> None:
    """Tell the campaign's open pages that the mission changed in a way its players see (started,
    closed, its result published or its published awards corrected): its topic on the live feed,
    in the caller's transaction. Never for what players do not see (the tally, a correction before
    publishing): a topic's message says only that the record moved (docs/live.md)."""
    live.publish_change(mission.campaign_id, live.topic_of("mission", mission.pk))


def lock(mission: Mission) -> Mission:
    """The mission's row, locked until the transaction ends (with its campaign)."""
    return Mission.objects.select_for_update().select_related("campaign").get(pk=mission.pk)


# -- planning -----------------------------------------------------------------------------------
def _plain(data: dict) -> dict:
    """A system without mission rules keeps a title and a briefing only."""
    extra = sorted(k for k, v in data.items() if k not in ALWAYS_FIELDS and v not in (None, "", []))
    if extra:
        raise ValidationError(
            {k: ["Missions of this campaign's game system do not keep this."] for k in extra}
        )
    return {k: v for k, v in data.items() if k in ALWAYS_FIELDS}


@transaction.atomic
def create_mission(campaign, data: dict) -> Mission:
    """A planned mission; ``data`` holds model fields (``agents`` a list of characters)."""
    rules = rules_for(campaign)
    clean = rules.clean_plan(campaign, data) if rules is not None else _plain(data)
    agents = clean.pop("agents", None)
    mission = Mission(campaign=campaign, **clean)
    if rules is not None:
        rules.check_plan(mission, [], agents or [])
    mission.save()
    if agents:
        mission.agents.set(agents)
    return mission


@transaction.atomic
def update_mission(mission: Mission, data: dict) -> Mission:
    """Change a mission: the system's plan fields only while planned, its open fields until it
    closes, title and briefing always."""
    locked = lock(mission)
    campaign = locked.campaign
    rules = rules_for(campaign)
    plan_fields: tuple[str, ...] = rules.PLAN_FIELDS if rules is not None else ()
    open_fields: tuple[str, ...] = rules.OPEN_FIELDS if rules is not None else ()
    changed = {k: v for k, v in data.items() if k in SYSTEM_FIELDS + ALWAYS_FIELDS}
    current_agents = list(locked.agents.all()) if "agents" in plan_fields else []
    for field in plan_fields:
        if field not in changed:
            continue
        same = (
            {a.pk for a in changed[field]} == {a.pk for a in current_agents}
            if field == "agents"
            else changed[field] == getattr(locked, field)
        )
        if same:
            changed.pop(field)
        elif locked.status != Mission.Status.PLANNED:
            raise _error(field, "This is fixed once the mission has started.")
    for field in open_fields:
        if field in changed and changed[field] != getattr(locked, field) and locked.is_closed:
            raise _error(field, "The mission is closed: this can no longer change.")
    changed = rules.clean_plan(campaign, changed) if rules is not None else _plain(changed)
    agents = changed.pop("agents", None)
    for field, value in changed.items():
        setattr(locked, field, value)
    if rules is not None and not locked.is_closed:
        rules.check_plan(
            locked, list(locked.tally_entries.all()), agents if agents is not None else current_agents
        )
    locked.save()
    if agents is not None:
        locked.agents.set(agents)
    return locked


@transaction.atomic
def delete_mission(mission: Mission) -> None:
    locked = lock(mission)
    if locked.status != Mission.Status.PLANNED:
        raise _error("status", "Only a planned mission can be deleted; this one is already on record.")
    locked.delete()


# -- starting -----------------------------------------------------------------------------------
@transaction.atomic
def start_mission(mission: Mission, by) -> list[str]:
    """Start a planned mission: the system's rules check it and write what the trip gives its
    characters (refusing with the field that is wrong); returns the rules' warnings."""
    locked = lock(mission)
    rules = _rules_or_refuse(locked.campaign)
    if locked.status != Mission.Status.PLANNED:
        raise _error("status", f"This mission is {locked.get_status_display().lower()}, not planned.")
    warnings: list[str] = rules.start(locked, by)
    locked.status = Mission.Status.ACTIVE
    locked.started_at = timezone.now()
    locked.save(update_fields=["status", "started_at"])
    announce(locked)
    return warnings


# -- publishing ---------------------------------------------------------------------------------
@transaction.atomic
def publish_mission(mission: Mission, by) -> Mission:
    """Show a closed mission's result to the players: the system's rules write what it gives each
    character, the roll that decided it joins the record, and the campaign's webhooks hear of it.
    One transaction: if the rules refuse for any character, nothing is published."""
    locked = lock(mission)
    rules = _rules_or_refuse(locked.campaign)
    if not locked.is_closed:
        raise _error("status", "Close the mission before publishing its result.")
    if locked.is_published:
        raise _error("status", "This mission's result is already published.")
    rules.publish(locked, by)
    locked.published_at = timezone.now()
    locked.published_by = by
    locked.save(update_fields=["published_at", "published_by"])
    shown = locked.check_roll_id is not None and Roll.objects.filter(
        pk=locked.check_roll_id, revealed_at__isnull=True
    ).update(revealed_at=locked.published_at)  # the roll is on the published record from now on
    if shown:
        rolllog.shared(Roll.objects.get(pk=locked.check_roll_id))  # now in the table's roll log
    fairness.release_secret_keys(locked.campaign)
    webhooks.after_commit_mission(locked, str(rules.verdict_label(locked.outcome)))
    announce(locked)
    mission.refresh_from_db()
    return locked


# -- the tally lines as each reader sees them ---------------------------------------------------
@transaction.atomic
def set_entry_shown(mission: Mission, entry_id: int, shown: bool) -> SignificanceEntry:
    """Choose whether players see this tally line on the published record (presentation only)."""
    locked = lock(mission)
    entry = locked.tally_entries.filter(pk=entry_id).first()
    if entry is None:
        raise _error("entry", "This mission's tally has no such entry.")
    entry.shown_to_players = bool(shown)
    entry.save(update_fields=["shown_to_players"], _allow_update=True)
    return entry


def visible_tally(entries: list[SignificanceEntry], is_gm: bool) -> list[SignificanceEntry]:
    """The tally lines this reader may see, in the order they were recorded.

    The GM sees every line. A player sees the lines shown to players, less any shown reversal of a
    line that is not shown (it would name a line the player cannot see); every total, number and
    "reversed" mark of a player's view is worked out from this list alone (docs/secrets.md)."""
    if is_gm:
        return list(entries)
    shown = [e for e in entries if e.shown_to_players]
    ids = {e.pk for e in shown}
    return [e for e in shown if e.reverses_id is None or e.reverses_id in ids]


def numbered_tally(entries: list[SignificanceEntry]) -> list[dict]:
    """The lines numbered 1, 2, 3 ... by their position in ``entries`` (never by database id), with
    the number of the line each reversal reverses and whether a line is reversed in this list."""
    numbers = {entry.pk: index for index, entry in enumerate(entries, start=1)}
    reversed_ids = {e.reverses_id for e in entries if e.kind == SignificanceEntry.Kind.REVERSAL}
    return [
        {
            "entry": entry,
            "number": numbers[entry.pk],
            "reverses_number": numbers.get(entry.reverses_id),
            "reversed": entry.pk in reversed_ids,
        }
        for entry in entries
    ]


def violation_messages(error: ValidationError) -> list[str]:
    if hasattr(error, "message_dict"):
        return [m for ms in error.message_dict.values() for m in ms]
    return list(error.messages)
