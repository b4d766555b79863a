"""The plans of the heaviest list queries in the 100x world of bench/scale.py, after ANALYZE.

    .venv/bin/python bench/explain.py                      # SQLite (EXPLAIN QUERY PLAN)
    .venv/bin/python bench/explain.py --database-url postgres://postgres@127.0.0.1:5432/dossier_scale_explain
                                                           # PostgreSQL (EXPLAIN ANALYZE); create it first

Each query is the one the view runs, built with the same queryset: the roll log's first page
(game master and player), a page of the campaign list, a page of the character history, and one
chunk of the export's roll reader. Figures and plans only.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
for entry in (str(HERE.parent), str(HERE)):
    if entry not in sys.path:
        sys.path.insert(0, entry)


def queries(world: dict) -> dict:
    from django.db.models import F

    from archive.sections import rolls as roll_section
    from campaigns.models import Campaign, Roll
    from characters.models import AdvancementEntry

    campaign = world["campaign"]
    log = Roll.objects.filter(campaign_id=campaign).order_by("-created_at", "-id")
    empty = Campaign.objects.exclude(pk=campaign).order_by("id").first().pk
    return {
        "roll log, GM, first page": log[:51],
        "roll log of an empty campaign": Roll.objects.filter(campaign_id=empty).order_by(
            "-created_at", "-id"
        )[:51],
        "roll log, player, first page": log.filter(secret=False)[:51],
        "campaign list, first page": Campaign.objects.filter(memberships__user_id=world["gm"])
        .annotate(my_role=F("memberships__role"))
        .order_by("name", "id")[:50],
        "character history, first page": AdvancementEntry.objects.filter(character_id=world["agent"])
        .select_related("recorded_by", "mission")
        .order_by("-id")[:50],
        "export, roll reader": Roll.objects.filter(campaign_id=campaign)
        .order_by("created_at", "id")
        .values_list(*roll_section.COLUMNS)[: roll_section.CHUNK],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--size", type=int, default=100)
    args = parser.parse_args(argv or [])
    from pages import setup_django

    with tempfile.TemporaryDirectory(prefix="dossier-explain-") as var_dir:
        setup_django(var_dir, debug=True, database_url=args.database_url)
        from django.db import connection
        from scale import analyze, seed_world

        world = seed_world(args.size)
        analyze()
        for label, queryset in queries(world).items():
            plan = queryset.explain(analyze=True) if connection.vendor == "postgresql" else queryset.explain()
            print(f"-- {label} ({connection.vendor})\n{plan}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
