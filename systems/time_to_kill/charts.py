"""Time to Kill's charts (campaigns.charts.ChartProvider), found by the registry by this module's name.

Victory points of every finished run and each player's ranking after it (time-to-kill.md §A4,
§B13: a victory scores one point per die roll made; the ranking is the points over the missions
completed). Every member sees these: the run pages show each run's outcome and victory points to
players too; nothing here comes from the secret Fates or the bag.
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
#: The report page's first sentence for each reader (campaigns/report_views.py asks for it).
REPORT_INTRO = {
    "gm": "Every finished run of every ninja.",
    "player": "Every finished run of every ninja: the same report for every member.",
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
    points: list[float | None] = []
    players: dict[str, list[float | None]] = {}
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
        players.setdefault(player, [None] * len(runs))[index] = ranking
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
    # the ranking's table is its drawing: a row per run, a column per player's line
    ranked = sorted(players.items())
    ranking_rows = tuple(
        (numbers[index], *("" if values[index] is None else f"{values[index]:g}" for _, values in ranked))
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
            summary="The ranking (victory points over missions completed) of the run's player after it.",
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
    ]
