"""Tempo's charts (campaigns.charts.ChartProvider), found by the registry by this module's name.

Finished conflicts over time: how many rounds each took and how it ended for the side the
characters stood on (tempo.md §B8; the engine's state keeps the round and the outcome). What a
reader sees follows the conflict pages: the GM every conflict, a player only the conflicts a
character of theirs takes part in (Conflict.objects.visible_to), an observer none.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from campaigns.charts import PALETTE, Chart, Series, points_chart
from campaigns.models import Membership
from systems.tempo.models import Conflict, Participant

RESULTS = (
    ("won", "Won by the characters' side", PALETTE[0]),
    ("lost", "Won by the other side", PALETTE[2]),
    ("open", "Ended without a winner", PALETTE[3]),
)


#: The printed pictures' font: the one this system's sheets are set in (systems/tempo/sheet_assets/sheet.css).
PRINT_FONT = "Sheet Inter, sans-serif"
#: What the charts are drawn from, and when a saved row changes them (campaigns/chart_warming.py
#: draws the report again then): a conflict that is over.
DRAWN_FROM = {Conflict: lambda conflict: conflict.status == Conflict.Status.OVER}
#: The report page's first sentence for each reader (campaigns/report_views.py asks for it).
REPORT_INTRO = {
    "gm": "Your copy holds every finished conflict.",
    "player": "The finished conflicts your characters took part in.",
}


#: The ledger's fate point entries and their count's key (tempo engine/ledger.py ENTRY_SHAPES;
#: a refresh adds its amount).
GAINED = {"fate_point_gained": "count", "fate_refresh": "amount"}
SPENT = {"fate_point_spent": "count"}


def fate_points_chart(campaign: Any, user: Any, is_gm: bool) -> Chart:
    """Fate points per character (tempo engine/fate.py: gained on a complication or a penalty die,
    spent on a bonus die, refreshed by the campaign's setting): gained, spent and held now."""
    return points_chart(campaign, user, is_gm, what="fate points", gained=GAINED, spent=SPENT)


def mission_charts(mission: Any, user: Any, is_gm: bool) -> list[Chart]:
    """Tempo's play is its conflicts; the campaign report shows them."""
    return []


def _winner_cell(state: dict[str, Any]) -> str:
    """Who won, or in words why nobody did: a table cell is never blank (the GM's end names its
    reason, engine/conflict.py _end; every member who sees the conflict sees that reason)."""
    outcome = state.get("outcome") or {}
    winner = outcome.get("winner")
    if winner:
        return str(((state.get("sides") or {}).get(winner) or {}).get("name") or winner)
    reason = str(outcome.get("reason") or "").strip()
    return f"No winner: ended by the GM ({reason})" if reason else "No winner"


def campaign_charts(campaign: Any, user: Any, is_gm: bool) -> list[Chart]:
    membership = Membership.objects.filter(campaign=campaign, user=user).first()
    if membership is None:
        return []
    conflicts = list(
        Conflict.objects.visible_to(user, membership)
        .filter(status=Conflict.Status.OVER)
        .prefetch_related(
            Prefetch(
                "participants", queryset=Participant.objects.only("id", "side", "conflict_id", "character_id")
            )
        )
        .only("id", "title", "state", "created_at")
        .order_by("created_at", "id")
    )
    numbers = tuple(str(n) for n in range(1, len(conflicts) + 1))
    by_result: dict[str, list[float | None]] = {key: [None] * len(conflicts) for key, _, _ in RESULTS}
    rows = []
    labels = {key: label for key, label, _ in RESULTS}
    for index, conflict in enumerate(conflicts):
        state = conflict.state or {}
        rounds = int(state.get("round") or 0)
        winner = (state.get("outcome") or {}).get("winner")
        ours = {p.side for p in conflict.participants.all() if p.character_id}
        result = "open" if winner is None else ("won" if winner in ours else "lost")
        by_result[result][index] = rounds
        rows.append((numbers[index], conflict.title, str(rounds), labels[result], _winner_cell(state)))
    return [
        Chart(
            key="campaign-conflicts",
            title="Rounds of each conflict, by how it ended",
            summary=f"{len(conflicts)} finished conflicts; each bar is a conflict's rounds, shaded by "
            "whether the characters' side won it.",
            kind="stacked_bar",
            x_labels=numbers,
            series=tuple(
                Series(label, tuple(by_result[key]), colour=colour)
                for key, label, colour in RESULTS
                if any(v is not None for v in by_result[key])
            ),
            table_headers=("No.", "Conflict", "Rounds", "Result", "Winner"),
            table_rows=tuple(rows),
            y_title="Rounds",
            empty="Each conflict appears here with its rounds once it is over.",
        ),
        fate_points_chart(campaign, user, is_gm),
    ]
