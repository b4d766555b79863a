"""TIMEMASTER's part of the chronicle (campaigns.chronicle.recap.ChronicleProvider), found by the
registry by this module's name.

- The recap's highlights: Success Points awarded, a grade gained and Success Points spent are
  "who advanced"; a fatal blow and a failed Luck check against death are "who fell", and so is an
  agent knocked out by damage when the agent is down now (a ledger entry keeps what was dealt, not
  what it did: the recap is read after its session, so the agent's condition now stands for it).
- Notable rolls: an Action Table check with a Colossal result ("C", timemaster-play.md §2-§3).
- The timeline's historical track: mission destinations and the agents' Times Visited by century
  (the eras the Time Corps has been to), as a chart with its table. A player's track holds the
  published missions only, and the visits of the agents the player may see that belong to no
  mission or to a published one: a mission the GM holds back (planned, under way or closed and not
  yet published) is on no player's track.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Q

from campaigns.charts import PALETTE, Chart, Series
from campaigns.models import Mission
from characters.models import Character
from systems.timemaster import ledger_words
from systems.timemaster.engine import condition as conditions
from systems.timemaster.engine import years

ADVANCING = ("sp_awarded", "grade_advanced", "sp_spent")
FALLING = ("damage_taken", "fatal_blow", "death_check")
#: The entries entry_highlight reads (the platform asks for these only).
HIGHLIGHT_ENTRY_KINDS = ADVANCING + FALLING
#: The rolls notable_roll may name: checks with a Colossal result (the platform filters on this).
NOTABLE_ROLLS = Q(detail__letter="C")


def entry_highlight(entry: Any) -> tuple[str, str] | None:
    """("advanced" | "fell", a sentence) for the entries worth a recap line."""
    payload = entry.payload or {}
    name = entry.character.name
    mission = entry.mission.title if entry.mission_id else ""
    if entry.kind in ADVANCING:
        if entry.kind == "sp_awarded" and not payload.get("amount"):
            return None
        return "advanced", f"{name}: {ledger_words.sentence(entry.kind, payload, mission)}"
    if entry.kind == "fatal_blow":
        return "fell", f"{name} took a fatal blow."
    if entry.kind == "death_check" and payload.get("survived") is False:
        return "fell", f"{name} failed the Luck check against death."
    if entry.kind in ("damage_taken", "death_check"):
        condition = conditions.condition_of(entry.character.build or {})
        if condition.get("dead"):
            return "fell", f"{name} is dead."
        if condition.get("unconscious") or condition.get("coma"):
            return "fell", f"{name} was knocked out."
    return None


def notable_roll(roll: Any) -> str:
    """A check with a Colossal result, named by the score checked."""
    detail = roll.detail or {}
    if detail.get("letter") == "C" and detail.get("result_name"):
        who = roll.character.name if roll.character_id else roll.roller.username if roll.roller_id else ""
        what = detail.get("score_name") or "A check"
        return f"{who + ': ' if who else ''}{what}, {detail['result_name']} ({detail.get('roll')})."
    return ""


# -- the historical track --------------------------------------------------------------------------
def _era(year: int) -> tuple[int, str]:
    """The century a year falls in: its order on the axis and its name."""
    astronomical = years.to_astronomical(year)
    return astronomical // 100, years.century_label(year)


def _visits(campaign, user, published: set[str] | None) -> list[tuple[str, dict]]:
    """(agent, Times Visited row) of the agents the reader sees; ``published``: the ids of the
    missions a player may see (None: the GM, every row)."""
    agents = (
        Character.objects.visible_to(user)
        .filter(campaign=campaign)
        .exclude(status=Character.Status.DRAFT)
        .only("id", "name", "build")
        .order_by("name", "id")
    )
    found = []
    for agent in agents:
        for row in (agent.build or {}).get("times_visited") or []:
            if not isinstance(row, dict) or not years.is_year(row.get("start_year")):
                continue
            mission = row.get("mission")
            if published is not None and mission not in (None, "") and str(mission) not in published:
                continue
            found.append((agent.name, row))
    return found


def timeline_tracks(campaign, user, membership) -> list[Chart]:
    missions = Mission.objects.filter(campaign=campaign, start_year__isnull=False)
    if not membership.is_gm:
        missions = missions.filter(published_at__isnull=False)
    shown = list(missions.only("id", "title", "start_year", "end_year", "place").order_by("start_year", "id"))
    published = None if membership.is_gm else {str(m.pk) for m in shown}
    visits = _visits(campaign, user, published)
    eras: dict[int, str] = {}
    destinations: dict[int, list[str]] = defaultdict(list)
    visited: dict[int, list[str]] = defaultdict(list)
    for mission in shown:
        assert mission.start_year is not None
        order, label = _era(mission.start_year)
        eras[order] = label
        span = years.span_label(mission.start_year, mission.end_year or mission.start_year)
        destinations[order].append(f"{mission.title} ({', '.join(x for x in (mission.place, span) if x)})")
    for agent, row in visits:
        order, label = _era(row["start_year"])
        eras[order] = label
        end = row.get("end_year") if years.is_year(row.get("end_year")) else row["start_year"]
        visited[order].append(f"{agent}: {years.span_label(row['start_year'], end)}")
    order = sorted(eras)
    labels = tuple(eras[o] for o in order)
    return [
        Chart(
            key="timeline-eras",
            title="The eras the agents have been to",
            summary="For each century, the missions sent there and the agents' Times Visited in it.",
            kind="bar",
            x_labels=labels,
            series=(
                Series("Mission destinations", tuple(len(destinations[o]) for o in order), colour=PALETTE[0]),
                Series("Times Visited", tuple(len(visited[o]) for o in order), colour=PALETTE[2]),
            ),
            table_headers=("Era", "Mission destinations", "Times Visited"),
            table_rows=tuple(
                (eras[o], "; ".join(destinations[o]) or "—", "; ".join(visited[o]) or "—") for o in order
            ),
            y_title="Missions and visits",
            empty=(
                "The eras appear here once a mission has a destination"
                + (" and its result is published." if not membership.is_gm else ".")
            ),
        )
    ]
