"""The plans of the heaviest list queries in the 100x world of bench/scale.py, before and after ANALYZE.

    .venv/bin/python bench/explain.py                      # SQLite (EXPLAIN QUERY PLAN)
    .venv/bin/python bench/explain.py --database-url postgres://postgres@127.0.0.1:5432/dossier_scale_explain
                                                           # PostgreSQL (EXPLAIN ANALYZE); create it first

Each query is the one the view runs, built with the same queryset: the roll log's first page
(game master and player), the first and a later page of the campaign list and of the character
history (page and API), one chunk of the export's roll reader, and what a player's pages read of the
rolls and the live feed (issue 43: the live cursor every campaign page draws, the feed's catch-up,
the player's roll log). Figures and plans only.
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
    from archive.sections import rolls as roll_section
    from campaigns.models import Campaign, Membership, Roll
    from characters.models import AdvancementEntry

    campaign = world["campaign"]
    log = Roll.objects.filter(campaign_id=campaign).order_by("-created_at", "-id")
    empty = Campaign.objects.exclude(pk=campaign).order_by("id").first().pk
    # positions deep in the lists, as a "next" link gives them
    deep_membership = Membership.objects.filter(user_id=world["gm"]).order_by("id")[10].pk
    deep_entry = AdvancementEntry.objects.filter(character_id=world["agent"]).order_by("id")[20].pk
    from django.contrib.auth import get_user_model

    from campaigns.models import LiveEvent
    from campaigns.table import live

    player = get_user_model().objects.get(pk=world["player"])
    membership = Membership.objects.select_related("campaign").get(campaign_id=campaign, user=player)
    events = LiveEvent.objects.filter(campaign_id=campaign)
    behind = events.get(public_id=world["live_after"]).pk
    return {
        # issue 43: what a player's every campaign page draws, and the live feed's catch-up
        "live cursor, player (the newest event they may see)": LiveEvent.objects.visible_to(
            player, membership
        )
        .order_by("-id")
        .values("public_id")[:1],
        "live feed, a client's cursor resolved": events.filter(public_id=world["live_after"]).values_list(
            "id", flat=True
        )[:1],
        "live feed, the events after a cursor": events.filter(id__gt=behind)
        .order_by("id")
        .values_list("id", "public_id", "roll_id", "topic")[: live.BATCH],
        "live feed, a batch's rolls as the members see them": live.log_lines(player, membership)
        .filter(pk__in=list(events.filter(id__gt=behind).values_list("roll_id", flat=True)))
        .order_by(),  # as campaigns/table/live.py's _by_pk reads them: unordered
        "roll log, player's view (log_lines), first page": live.log_lines(player, membership)[:50],
        "roll log, GM, first page": log[:51],
        "roll log of an empty campaign": Roll.objects.filter(campaign_id=empty).order_by(
            "-created_at", "-id"
        )[:51],
        "roll log, player, first page": log.filter(secret=False)[:51],
        "campaign list, first page": Membership.objects.filter(user_id=world["gm"])
        .select_related("campaign")
        .order_by("-id")[:51],
        "campaign list, a later page": Membership.objects.filter(user_id=world["gm"], id__lt=deep_membership)
        .select_related("campaign")
        .order_by("-id")[:51],
        "character history page, first page": AdvancementEntry.objects.filter(character_id=world["agent"])
        .select_related("recorded_by", "mission")
        .order_by("-id")[:51],
        "character history page, a later page": AdvancementEntry.objects.filter(
            character_id=world["agent"], id__lt=deep_entry
        )
        .select_related("recorded_by", "mission")
        .order_by("-id")[:51],
        "history API, a page by cursor": AdvancementEntry.objects.filter(
            character_id=world["agent"], id__gt=deep_entry
        )
        .select_related("recorded_by")
        .order_by("id")[:51],
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
        from scale import analyze, pause_autovacuum, seed_world

        pause_autovacuum()  # "no statistics" means none: PostgreSQL's autovacuum would ANALYZE
        world = seed_world(args.size)
        for planner in ("no statistics", "after ANALYZE"):
            if planner == "after ANALYZE":
                analyze()
            for label, queryset in queries(world).items():
                plan = (
                    queryset.explain(analyze=True)
                    if connection.vendor == "postgresql"
                    else queryset.explain()
                )
                print(f"-- {label} ({connection.vendor}, {planner})\n{plan}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
