"""D6's charts (campaigns.charts.ChartProvider), found by the registry by this module's name.

Finished encounters over time: how many rounds each ran (d6-game-time.md: the tracker counts the
rounds). Every member sees the encounters (Encounter.objects.visible_to); only the name and the
number of rounds are drawn, nothing of the NPCs taking part.
"""

from __future__ import annotations

from typing import Any

from campaigns.charts import PALETTE, Chart, Series
from systems.d6.models import Encounter


def mission_charts(mission: Any, user: Any, is_gm: bool) -> list[Chart]:
    """D6's play is its encounters; the campaign report shows them."""
    return []


def campaign_charts(campaign: Any, user: Any, is_gm: bool) -> list[Chart]:
    encounters = list(
        Encounter.objects.visible_to(user)
        .filter(campaign=campaign, status=Encounter.Status.OVER)
        .only("id", "name", "state", "created_at")
        .order_by("created_at", "id")
    )
    numbers = tuple(str(n) for n in range(1, len(encounters) + 1))
    rounds = [int((e.state or {}).get("round") or 0) for e in encounters]
    return [
        Chart(
            key="campaign-encounters",
            title="Rounds of each encounter",
            summary=f"{len(encounters)} finished encounters; each bar is an encounter's rounds.",
            kind="bar",
            x_labels=numbers,
            series=(Series("Rounds", tuple(rounds), colour=PALETTE[6]),),
            table_headers=("No.", "Encounter", "Rounds"),
            table_rows=tuple(
                (numbers[i], e.name or "Encounter", str(rounds[i])) for i, e in enumerate(encounters)
            ),
            y_title="Rounds",
            empty="Each encounter appears here with its rounds once it is over.",
        )
    ]
