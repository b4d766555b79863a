"""TIMEMASTER's charts (campaigns.charts.ChartProvider), found by the registry by this module's name.

What each reader gets (ARCHITECTURE.md "Who may see what"; rulings 3-4):
- the GM: every closed mission, its significance rating, the roll, the difference, every counting
  tally line, every agent;
- a player: published missions only, their verdict, the tally lines shown to players (by kind,
  totalled among themselves), and the Success Points and standing of their own agents. Nothing
  drawn for a player is computed from a hidden line, an unpublished mission or the significance.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, NamedTuple

from django.db.models import Prefetch

from campaigns.charts import PALETTE, Chart, Series
from campaigns.models import Mission, SignificanceEntry
from characters.models import AdvancementEntry, Character
from characters.systems import RuleError
from characters.systems.wording import counted
from systems.timemaster import missions as tm_missions
from systems.timemaster.engine import counterfactual, regulations
from systems.timemaster.engine.advancement_tables import TALLY_KINDS

VERDICT_ORDER = ("history_intact", "history_changed", "mission_failed")
VERDICT_COLOURS = {"history_intact": PALETTE[2], "history_changed": PALETTE[0], "mission_failed": PALETTE[1]}
# black, blue, sky blue, yellow: four steps of lightness (20 or more in L*), so a stack reads in greyscale
KIND_COLOURS = dict(zip(TALLY_KINDS, PALETTE[:4], strict=True))


#: The printed pictures' font: the one this system's sheets are set in (sheets/assets/sheet.css).
PRINT_FONT = "Sheet Libertine, serif"
#: What the charts are drawn from, and when a saved row changes them (campaigns/chart_warming.py
#: draws the report again then): a closed mission (closing, publishing and a correction save it).
DRAWN_FROM = {Mission: lambda mission: mission.is_closed}
#: The report page's first sentence for each reader (campaigns/report_views.py asks for it).
REPORT_INTRO = {
    "gm": "Your copy holds every closed mission and every agent.",
    "player": "Published mission results, and your own agents.",
}


def _points(count: int | None) -> str:
    return "point" if count == 1 else "points"


def _counting_by_kind(entries: list[SignificanceEntry]) -> dict[str, int]:
    return tm_missions.tally_summary(entries)["by_kind"]


def _visible(entries: list[SignificanceEntry], is_gm: bool) -> list[SignificanceEntry]:
    """The GM's lines, or the lines shown to players: nothing drawn for a player rests on others."""
    return entries if is_gm else [e for e in entries if e.shown_to_players]


# -- one mission --------------------------------------------------------------------------------
def mission_charts(mission: Mission, user: Any, is_gm: bool) -> list[Chart]:
    """The GM: the mistakes by kind against the roll and the significance, with the difference. A
    player, once published: the shown lines by kind and the published verdict."""
    if not mission.is_closed or not (is_gm or mission.is_published):
        return []
    entries = _visible(list(mission.tally_entries.all()), is_gm)
    return [mission_tally_chart(mission, entries, is_gm)]


def mission_tally_chart(mission: Mission, entries: list[SignificanceEntry], is_gm: bool) -> Chart:
    outcome = mission.outcome or {}
    by_kind = _counting_by_kind(entries)
    total = sum(by_kind.values())
    verdict = tm_missions.verdict_label(outcome)
    labels = dict(SignificanceEntry.Kind.choices)
    check = outcome.get("check") or {}
    roll = check.get("roll") if is_gm else None
    significance = outcome.get("significance") if is_gm else None
    categories = ["Mistakes"] + (["Roll"] if roll is not None else []) + (["Significance"] if is_gm else [])
    width = len(categories)
    series = [
        Series(labels[kind], (value,) + (None,) * (width - 1), colour=KIND_COLOURS[kind])
        for kind, value in by_kind.items()
        if value
    ]
    rows = [(labels[kind], str(value)) for kind, value in by_kind.items()]
    rows.append(("Mistakes total" if is_gm else "Total of the lines shown", str(total)))
    notes = [f"Verdict: {verdict}."] if verdict else []
    if roll is not None:
        series.append(Series("Significance roll", (None, roll) + (None,) * (width - 2), colour=PALETTE[5]))
        rows.append(("Significance roll", str(roll)))
        difference = counterfactual.difference(total, roll)
        gap = counterfactual.to_other_verdict(total, roll)
        if roll <= total:
            notes.append(
                f"Roll {roll} ≤ mistakes {total}: difference {difference}; "
                f"{gap} fewer {_points(gap)} of mistakes would have kept history."
            )
        else:
            notes.append(
                f"Roll {roll} > mistakes {total}: difference {difference}; "
                f"{gap} more {_points(gap)} of mistakes would have changed history."
            )
        rows.append(("Difference (mistakes − roll)", str(difference)))
    if is_gm:
        series.append(
            Series("Significance rating", (None,) * (width - 1) + (significance,), colour=PALETTE[6])
        )
        rows.append(("Significance rating", "not set" if significance is None else str(significance)))
    summary = (
        f"Mistakes by kind, {total} in all"
        + (f", against a roll of {roll}" if roll is not None else "")
        + (f" and a significance of {significance}" if significance is not None else "")
        + (f". {verdict}." if verdict else ".")
    )
    return Chart(
        key="mission-tally",
        title="Mistakes against the check" if is_gm else "Mistakes shown to players",
        summary=summary,
        kind="horizontal_stacked_bar",
        x_labels=tuple(categories),
        series=tuple(series),
        table_headers=("What", "Points"),
        table_rows=tuple(rows),
        notes=tuple(notes),
        empty="The mistakes appear here once the mission is closed.",
    )


# -- the campaign -------------------------------------------------------------------------------
class Entry(NamedTuple):
    """The fields of a ledger entry the campaign's charts read."""

    pk: int
    character_id: int
    kind: str
    payload: dict[str, Any]
    mission_id: int | None
    reverses_id: int | None


def _closed_missions(campaign: Any, is_gm: bool) -> list[Mission]:
    queryset = campaign.missions.filter(status__in=Mission.CLOSED_STATUSES)
    if not is_gm:
        queryset = queryset.filter(published_at__isnull=False)
    entries = SignificanceEntry.objects.only(
        "id", "kind", "rating", "reverses_id", "mission_id", "shown_to_players"
    )
    return list(
        queryset.prefetch_related(Prefetch("tally_entries", queryset=entries)).order_by("closed_at", "id")
    )


def campaign_charts(campaign: Any, user: Any, is_gm: bool) -> list[Chart]:
    closed = _closed_missions(campaign, is_gm)
    agents = Character.objects.filter(campaign=campaign, system=tm_missions.SYSTEM).exclude(
        status=Character.Status.DRAFT
    )
    if not is_gm:
        agents = agents.filter(owner=user)
    agents = list(agents.order_by("name", "id"))
    # plain rows, not model instances: a 50-mission campaign's ledger is a thousand entries, and
    # building a model for each was half of the report's data cost (issue 46, finding 9)
    ledger = [
        Entry(*row)
        for row in AdvancementEntry.objects.filter(character__in=agents)
        .order_by("id")
        .values_list("id", "character_id", "kind", "payload", "mission_id", "reverses_id")
    ]
    return [
        missions_chart(closed, is_gm),
        success_points_chart(agents, ledger),
        standing_chart(agents, ledger, closed),
    ]


def missions_chart(closed: list[Mission], is_gm: bool) -> Chart:
    """Per mission, the mistakes total (the shown lines' for a player) by verdict; the GM also
    sees the significance rating as a dashed line."""
    numbers = tuple(str(n) for n in range(1, len(closed) + 1))
    per_verdict: dict[str, list[float | None]] = {v: [None] * len(closed) for v in VERDICT_ORDER}
    significance: list[float | None] = []
    rows = []
    for index, mission in enumerate(closed):
        outcome = mission.outcome or {}
        entries = _visible(list(mission.tally_entries.all()), is_gm)
        total = sum(_counting_by_kind(entries).values())
        verdict = outcome.get("verdict", "mission_failed")
        per_verdict.setdefault(verdict, [None] * len(closed))[index] = total
        significance.append(outcome.get("significance") if is_gm else None)
        row = [numbers[index], mission.title, tm_missions.verdict_label(outcome), str(total)]
        if is_gm:
            roll = (outcome.get("check") or {}).get("roll")
            difference = counterfactual.difference(outcome.get("mistakes_total", total), roll)
            # a failed or aborted mission rolls no check: its cells say so, never blank
            row += [
                str(outcome.get("significance", "not set")),
                "no check" if roll is None else str(roll),
                "no check" if difference is None else str(difference),
            ]
        rows.append(tuple(row))
    labels = tm_missions.VERDICT_LABELS
    series = [
        Series(labels[v], tuple(per_verdict[v]), style="dots", colour=VERDICT_COLOURS[v])
        for v in VERDICT_ORDER
        if any(value is not None for value in per_verdict[v])
    ]
    if is_gm and closed:
        series.append(Series("Significance rating", tuple(significance), style="line", colour=PALETTE[0]))
    headers = ("No.", "Mission", "Verdict", "Mistakes" if is_gm else "Mistakes shown")
    if is_gm:
        headers += ("Significance", "Roll", "Difference")
    return Chart(
        key="campaign-missions",
        title="Mistakes per mission" + (" against significance" if is_gm else ""),
        summary=f"{counted(len(closed), 'closed mission')}; each dot is a mission's mistakes total, "
        "shaded by its verdict" + (", the dashed line its significance rating." if is_gm else "."),
        kind="line",
        x_labels=numbers,
        series=tuple(series),
        table_headers=headers,
        table_rows=tuple(rows),
        y_title="Significance points",
        empty="Each mission appears here as a dot once it is closed"
        + ("." if is_gm else " and its result published."),
    )


def _live(ledger: list[Entry]) -> list[Entry]:
    undone = {e.reverses_id for e in ledger if e.kind == AdvancementEntry.REVERSAL}
    return [e for e in ledger if e.kind != AdvancementEntry.REVERSAL and e.pk not in undone]


def success_points_chart(agents: list[Character], ledger: list[Entry]) -> Chart:
    """Per agent: Success Points earned (regular and bonus), spent, and forgone (demoted or
    Timemaster/10, ruling 3), from the ledger entries that stand (not reversed)."""
    earned: dict[int, int] = defaultdict(int)
    spent: dict[int, int] = defaultdict(int)
    forgone: dict[int, int] = defaultdict(int)
    for entry in _live(ledger):
        payload = entry.payload or {}
        if entry.kind == "sp_awarded":
            earned[entry.character_id] += int(payload.get("amount") or 0)
            forgone[entry.character_id] += int(payload.get("forgone") or 0)
        elif entry.kind == "sp_spent":
            spent[entry.character_id] += int(payload.get("cost") or 0)
    names = tuple(a.name for a in agents)
    columns = (("Earned", earned, PALETTE[0]), ("Spent", spent, PALETTE[1]), ("Forgone", forgone, PALETTE[2]))
    return Chart(
        key="campaign-success-points",
        title="Success Points per agent",
        summary="For each agent, the Success Points earned, spent and forgone over the campaign.",
        kind="bar",
        x_labels=names,
        series=tuple(
            Series(label, tuple(values[a.pk] for a in agents), colour=colour)
            for label, values, colour in columns
        ),
        table_headers=("Agent", "Earned", "Spent", "Forgone"),
        table_rows=tuple((a.name, str(earned[a.pk]), str(spent[a.pk]), str(forgone[a.pk])) for a in agents),
        y_title="Success Points",
        empty="Each agent's Success Points appear here once a mission's awards are published.",
    )


def _steps(position: tuple[int, int]) -> int:
    """Rank and grade as one number on the chart's axis: ten grades to a rank (ruling 1)."""
    return position[0] * 10 + position[1]


def standing_chart(agents: list[Character], ledger: list[Entry], closed: list[Mission]) -> Chart:
    """Per agent, rank and grade after each closed mission (grade steps, ladder punishments and
    demotions walked from the creation standing, timemaster-characters.md §6.5-§6.6), carried
    from the first mission with an entry of theirs, with the regulation offences and demotions
    marked on the mission they were recorded with. The table holds exactly what is drawn: one row
    per mission, each agent's standing after it and the marks; the y axis ticks on the standings
    that occur, named."""
    index_of = {m.pk: i for i, m in enumerate(closed)}
    live = _live(ledger)
    by_agent: dict[int, list[Entry]] = defaultdict(list)
    for entry in live:
        by_agent[entry.character_id].append(entry)
    series = []
    marks: list[float | None] = [None] * len(closed)
    marked: list[list[str]] = [[] for _ in closed]
    labels: dict[int, str] = {}
    columns: list[list[str]] = []
    for number, agent in enumerate(agents):
        try:
            position = regulations.position_of(agent.creation_build or {})
        except RuleError:  # a creation build without a standing: Trainee/0 (§6.5)
            position = (0, 0)
        at: dict[int, tuple[int, int]] = {}
        for entry in by_agent[agent.pk]:
            payload = entry.payload or {}
            if entry.kind == "grade_advanced" and not regulations.at_top(position):
                position = regulations.next_position(position)
            elif entry.kind == "demotion":
                position = regulations.demoted_position(
                    position, ranks=int(payload.get("ranks") or 0), grades=int(payload.get("grades") or 0)
                )
            elif entry.kind == "regulation_violation":
                spec = regulations.PUNISHMENTS.get(payload.get("punishment"), {})
                if not spec.get("banish"):
                    position = regulations.demoted_position(
                        position, ranks=spec.get("ranks", 0), grades=spec.get("grades", 0)
                    )
            index = index_of.get(entry.mission_id) if entry.mission_id else None
            if index is not None:
                at[index] = position
                if entry.kind in ("regulation_violation", "demotion"):
                    marks[index] = _steps(position)
                    what = "offence" if entry.kind == "regulation_violation" else "demotion"
                    marked[index].append(f"{agent.name}: {what}")
        after: list[float | None] = [None] * len(closed)
        cells = ["not on a mission yet"] * len(closed)
        current = None
        for index in range(len(closed)):
            current = at.get(index, current)
            if current is not None:
                after[index] = _steps(current)
                labels[_steps(current)] = regulations.position_label(current)
                cells[index] = regulations.position_label(current)
        columns.append(cells)
        series.append(Series(agent.name, tuple(after), colour=PALETTE[number % len(PALETTE)]))
    headers = ("Mission", *(a.name for a in agents))
    if any(mark is not None for mark in marks):
        series.append(Series("Offence or demotion", tuple(marks), style="dots", colour=PALETTE[4]))
        headers += ("Offence or demotion",)
    rows = []
    for index in range(len(closed)):
        cells = [column[index] for column in columns]
        if all(value is None for value in (s.values[index] for s in series[: len(agents)])):
            continue
        row = (str(index + 1), *cells)
        if len(headers) > len(row):
            row += ("; ".join(marked[index]) or "none",)
        rows.append(row)
    # ticks on the standings that occur; at most eight, spread over them
    values = sorted(labels)
    if len(values) > 8:
        values = [values[round(i * (len(values) - 1) / 7)] for i in range(8)]
    return Chart(
        key="campaign-standing",
        title="Rank and grade after each mission",
        summary="Each agent's rank and grade (ten grades to a rank) after each mission, from the first "
        "they went on; regulation offences and demotions are marked.",
        kind="line",
        x_labels=tuple(str(n) for n in range(1, len(closed) + 1)),
        series=tuple(series),
        table_headers=headers,
        table_rows=tuple(rows),
        y_title="Rank and grade",
        y_labels=tuple((value, labels[value]) for value in values),
        notes=("No regulation offences or demotions on record.",)
        if rows and len(headers) == len(agents) + 1
        else (),
        empty="Each agent's rank and grade appear here after their first mission is published.",
    )
