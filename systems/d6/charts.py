"""D6's charts (campaigns.charts.ChartProvider), found by the registry by this module's name.

Finished encounters over time: how many rounds each ran (d6-game-time.md: the tracker counts the
rounds). Every member sees the encounters (Encounter.objects.visible_to); only the name and the
number of rounds are drawn, nothing of the NPCs taking part.
"""

from __future__ import annotations

from typing import Any

from campaigns.charts import PALETTE, Chart, Series, points_chart
from systems.d6.models import Encounter

#: The printed pictures' font: the one this system's sheets are set in (systems/d6/sheet_assets/sheet.css).
PRINT_FONT = "Sheet Slab, serif"
#: What the charts are drawn from, and when a saved row changes them (campaigns/chart_warming.py
#: draws the report again then): an encounter that is over.
DRAWN_FROM = {Encounter: lambda encounter: encounter.status == Encounter.Status.OVER}
#: The report page's first sentence for each reader (campaigns/report_views.py asks for it).
REPORT_INTRO = {
    "gm": "Every finished encounter of the campaign.",
    "player": "Every finished encounter of the campaign.",
}


#: The ledger's fate point entries and their count's key (d6 engine/ledger.py ENTRY_SHAPES).
GAINED = {"fate_points_gained": "count"}
SPENT = {"fate_points_spent": "count"}


def fate_points_chart(campaign: Any, user: Any, is_gm: bool) -> Chart:
    """Fate points per character (the sheet's Fate Points, d6 engine/ledger.py: gained and spent
    through the ledger): gained, spent and held now."""
    return points_chart(campaign, user, is_gm, what="fate points", gained=GAINED, spent=SPENT)


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
        ),
        fate_points_chart(campaign, user, is_gm),
    ]
