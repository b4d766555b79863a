"""Time to Kill's charts (campaigns.charts.ChartProvider), found by the registry by this module's name.

Victory points of every finished run and each player's ranking after it (time-to-kill.md §A4,
§B13: a victory scores one point per die roll made; the ranking is the points over the missions
completed), and each run's time: the stones drawn from the bag, by when (§B1, §B5-§B6, §B11).
Every member sees these: the run pages show each run's outcome, victory points and draws to
players too; nothing here comes from the secret Fates. The stones left in the bag are the GM's
(ruling 6), drawn for a player only where the run's campaign showed players the count.
"""

from __future__ import annotations

from typing import Any

from campaigns.charts import PALETTE, Chart, Series
from systems.time_to_kill import services
from systems.time_to_kill.engine.tables import OUTCOMES
from systems.time_to_kill.models import MissionRun

#: The printed pictures' font: the one this system's sheets are set in
#: (systems/time_to_kill/sheet_assets/sheet.css).
PRINT_FONT = "Sheet Garamond, serif"
#: What the charts are drawn from, and when a saved row changes them (campaigns/chart_warming.py
#: draws the report again then): a run that is over.
DRAWN_FROM = {MissionRun: lambda run: run.status == MissionRun.Status.OVER}
#: The report page's first sentence for each reader (campaigns/report_views.py asks for it).
REPORT_INTRO = {
    "gm": "Every finished run of every ninja.",
    "player": "Every finished run of every ninja: the same report for every player.",
}


def mission_charts(mission: Any, user: Any, is_gm: bool) -> list[Chart]:
    """A Time to Kill mission is its runs; the campaign report shows them."""
    return []


def _outcome_label(outcome: str) -> str:
    return "Abandoned" if outcome == services.ABANDONED else OUTCOMES.get(outcome, outcome)


def campaign_charts(campaign: Any, user: Any, is_gm: bool) -> list[Chart]:
    runs = list(
        MissionRun.objects.filter(campaign=campaign, status=MissionRun.Status.OVER)
        .select_related("ninja", "ninja__owner")
        .only(
            "id",
            "title",
            "outcome",
            "state",
            "created_at",
            "ninja__name",
            "ninja__creation_build",
            "ninja__owner__username",
        )
        .order_by("created_at", "id")
    )
    numbers = tuple(str(n) for n in range(1, len(runs) + 1))
    records: dict[int, dict[str, int]] = {}  # ninja id -> the player's record carried by that ninja
    rankings: dict[str, dict[int, float | None]] = {}  # player -> run index -> ranking after it
    points: list[float | None] = []
    rows = []
    for index, run in enumerate(runs):
        ninja = run.ninja
        start = (ninja.creation_build or {}).get("record") or {}
        record = records.setdefault(
            ninja.pk,
            {
                "ranking_points": int(start.get("ranking_points") or 0),
                "missions_completed": int(start.get("missions_completed") or 0),
            },
        )
        state = run.state or {}
        won = run.outcome == "victory"
        victory_points = int(state.get("victory_points") or 0) if won else 0
        if won:  # §B13: ranking_points += die rolls, missions_completed += 1
            record["ranking_points"] += int(state.get("die_roll_count") or 0)
            record["missions_completed"] += 1
        ranking = (
            round(record["ranking_points"] / record["missions_completed"], 2)
            if record["missions_completed"]
            else None
        )
        player = ninja.owner.username if ninja.owner_id else "?"
        rankings.setdefault(player, {})[index] = ranking
        points.append(victory_points)
        rows.append(
            (
                numbers[index],
                run.title,
                f"{ninja.name} ({player})",
                _outcome_label(run.outcome),
                str(victory_points),
            )
        )
    headers = ("Run", "Mission", "Ninja (player)", "Outcome", "Victory points")
    time_chart = stones_chart(runs, numbers, is_gm)
    # the ranking's table is its drawing: a row per run, a column per player's line
    ranked = [(player, _carried(rankings[player], len(runs))) for player in sorted(rankings)]
    ranking_rows = tuple(
        (numbers[index], *(_ranking_cell(rankings[player], values, index) for player, values in ranked))
        for index in range(len(runs))
    )
    return [
        Chart(
            key="campaign-victory-points",
            title="Victory points per run",
            summary=f"{len(runs)} finished runs; each bar is a run's victory points (a victory scores "
            "one point per die roll).",
            kind="bar",
            x_labels=numbers,
            series=(Series("Victory points", tuple(points), colour=PALETTE[6]),),
            table_headers=headers,
            table_rows=tuple(rows),
            y_title="Victory points",
            empty="Each run appears here with its victory points once it is over.",
        ),
        Chart(
            key="campaign-ranking",
            title="Each player's ranking after each run",
            summary="Each player's ranking (victory points over missions completed) after each run; "
            "it changes only on the player's own runs.",
            kind="line",
            x_labels=numbers,
            series=tuple(
                Series(player, tuple(values), colour=PALETTE[i % len(PALETTE)])
                for i, (player, values) in enumerate(ranked)
            ),
            table_headers=("Run", *(player for player, _ in ranked)),
            table_rows=ranking_rows,
            y_title="Ranking",
            empty="Each player's ranking appears here after their first finished run.",
        ),
        time_chart,
    ]


def _carried(after_runs: dict[int, float | None], count: int) -> list[float | None]:
    """A player's ranking after every run of the campaign: it changes only on their own runs, so
    after someone else's run it is the one they held (§B13)."""
    values: list[float | None] = []
    current = None
    for index in range(count):
        current = after_runs.get(index, current)
        values.append(current)
    return values


def _ranking_cell(after_runs: dict[int, float | None], values: list[float | None], index: int) -> str:
    """A ranking, or in words why there is none: a table cell is never blank."""
    value = values[index]
    if value is not None:
        return f"{value:g}"
    return "no victory yet" if any(run <= index for run in after_runs) else "no run yet"


#: When an ordinary stone left the bag (the engine's ``draws``, §B5-§B6, §B11), in the order the
#: bars stack them: what a player tracks as the mission's time running out.
DRAWN_WHEN = (
    ("preparation", "Drawn in preparation"),
    ("wait", "Drawn on a wait"),
    ("end_of_turn", "Drawn at a turn's end"),
    ("penalty", "Lost with the target"),
)
LEFT = "Left in the bag"


def stones_chart(runs: list[MissionRun], numbers: tuple[str, ...], is_gm: bool) -> Chart:
    """The time of each finished run (§B1, §B12): the ordinary stones drawn from the bag, by when
    they were drawn (every member sees each draw on the run's page), and for the GM the stones
    still in the bag when it ended. A player sees those only for a run whose campaign setting
    showed the count (ruling 6: the stones left are the GM's secret unless the GM shows them)."""
    drawn: dict[str, list[float | None]] = {when: [] for when, _ in DRAWN_WHEN}
    left: list[float | None] = []
    for run in runs:
        state = run.state or {}
        counts = dict.fromkeys(drawn, 0)
        for draw in state.get("draws") or []:
            if draw.get("stone") == "ordinary" and draw.get("when") in counts:
                counts[draw["when"]] += 1
        for when, count in counts.items():
            drawn[when].append(count)
        shown = is_gm or bool((state.get("settings") or {}).get("players_see_stone_count"))
        bag = state.get("bag") or {}
        left.append(int(bag.get("ordinary") or 0) if shown and "ordinary" in bag else None)
    series = [
        Series(label, tuple(drawn[when]), colour=PALETTE[index])
        for index, (when, label) in enumerate(DRAWN_WHEN)
        if any(drawn[when])
    ]
    if any(value is not None for value in left):
        series.append(Series(LEFT, tuple(left), colour=PALETTE[5]))
    # the table is the drawing: a row per run, a column per drawn series
    rows = tuple(
        (
            numbers[index],
            # the stones left of a run that did not show players the count: hidden, never blank
            *("not shown" if s.values[index] is None else f"{s.values[index]:g}" for s in series),
        )
        for index in range(len(runs))
    )
    shows_left = bool(series) and series[-1].name == LEFT
    return Chart(
        key="campaign-stones",
        title="Time of each run: the stones drawn from the bag",
        summary=f"{len(runs)} finished runs; each bar is the ordinary stones a run drew from the bag, "
        "by when they were drawn" + (", and those still in it when it ended." if shows_left else "."),
        kind="stacked_bar",
        x_labels=numbers,
        series=tuple(series),
        table_headers=("Run", *(s.name for s in series)),
        table_rows=rows if series else (),
        y_title="Stones",
        empty="Each run appears here with the stones it drew from the bag once it is over.",
    )
