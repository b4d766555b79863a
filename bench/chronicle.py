"""The chronicle's pages at 10 and 100 play sessions (issue 50, parts 3-4): the last session's page,
the overview with its "Previously on…" recap, the last session's handout and the timeline, as the
GM and as a player; and the chronicle book's record (part 6: every chapter and the timeline).

    .venv/bin/python bench/chronicle.py                  # production-like settings (DEBUG off)
    .venv/bin/python bench/chronicle.py --repeat 50      # more requests per target
    .venv/bin/python bench/run_all.py chronicle          # as `make bench` runs it

The world is bench/world.py's ``seed_missions`` (a TIMEMASTER campaign of MISSIONS missions played
through the services: agents sent to a new year each time, tallies, secret checks, all published
but the last), then play sessions a day apart with a shared and a GM-only note and 500 rolls each
(bulk: the pages, not the services, are under test; 50,000 rolls at 100 sessions); the last session
spans all the missions' play, so its recap reads the most rows it may
(``campaigns.chronicle.recap.MAX_READ``). Each size is measured in the same database after the
sessions are added, in turns. Wall time per request (p50/p95/p99) with Django's test client, and
the queries one request runs. Figures only.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for entry in (str(ROOT), str(ROOT / "bench")):
    if entry not in sys.path:
        sys.path.insert(0, entry)

from pages import setup_django  # noqa: E402
from timing import summary  # noqa: E402
from world import seed_missions  # noqa: E402

MISSIONS = 20
SIZES = (10, 100)
ROLLS_PER_SESSION = 500


def add_sessions(campaign_id: int, gm, upto: int) -> None:
    """Sessions up to number ``upto``: each a day apart; the last ends now and began before the
    first mission, so its window holds all the play."""
    from django.utils import timezone

    from campaigns.models import Campaign, Note, NoteVisibility, PlaySession, Roll

    campaign = Campaign.objects.get(pk=campaign_id)
    now = timezone.now()
    first_play = campaign.missions.order_by("created_at").values_list("created_at", flat=True).first() or now
    have = campaign.play_sessions.count()
    PlaySession.objects.filter(campaign=campaign, number=have).update(
        ended_at=first_play - datetime.timedelta(minutes=1)
    )
    made = []
    for number in range(have + 1, upto + 1):
        last = number == upto
        began = now - datetime.timedelta(days=400 - number)
        if last:
            began = first_play - datetime.timedelta(seconds=30)
        made.append(
            PlaySession(
                campaign=campaign,
                number=number,
                title=f"Evening {number}",
                date=began.date(),
                started_at=began,
                ended_at=now if last else began + datetime.timedelta(hours=4),
                started_by=gm,
            )
        )
    made = PlaySession.objects.bulk_create(made)
    # The table: 500 rolls a session (50,000 at 100 sessions), one in 50 a GM's secret one.
    rolls = Roll.objects.bulk_create(
        (
            Roll(
                campaign=campaign, kind="percent", total=1 + (i * 37) % 100, faces=[1 + (i * 37) % 100],
                purpose=f"Roll {i} of {s.title}", secret=i % 50 == 0, roller=gm,
            )
            for s in made
            for i in range(ROLLS_PER_SESSION)
        ),
        batch_size=2000,
    )  # fmt: skip
    # Each in its session, a second apart. bulk_create stamps a roll's created_at with the moment it
    # is written (auto_now_add), whatever the row says: until stop 57 every roll of the bench was in
    # the last session's window and the others held none. bulk_update writes the value given.
    for n, roll in enumerate(rolls):
        session = made[n // ROLLS_PER_SESSION]
        roll.created_at = session.started_at + datetime.timedelta(seconds=n % ROLLS_PER_SESSION + 1)
    Roll.objects.bulk_update(rolls, ["created_at"], batch_size=1000)
    Note.objects.bulk_create(
        Note(
            campaign=campaign,
            play_session=s,
            author=gm,
            visibility=v,
            title=f"{s.title}",
            body=f"What happened on {s.title}: [[Agent 0]] and [[Agent 1]] went through the gate. " * 6,
        )
        for s in made
        for v in (NoteVisibility.SHARED, NoteVisibility.GM)
    )


def book_record(world, persona: str, repeat: int = 5) -> list[float]:
    """The chronicle book's record for one reader (campaigns.chronicle.book.record: every session's
    chapter and the timeline), the part of asking for the PDF that the web request does; the
    render itself is the worker's (bench/sheets.py measures WeasyPrint)."""
    from campaigns.chronicle import book as chronicle_book
    from campaigns.models import Campaign, Membership

    campaign = Campaign.objects.get(pk=world["campaign"])
    membership = Membership.objects.get(campaign=campaign, user=world[persona])
    wall = []
    for _ in range(repeat):
        begun = time.perf_counter()
        chronicle_book.record(campaign, world[persona], membership)
        wall.append(time.perf_counter() - begun)
    return wall


def book_render(world, persona: str) -> tuple[float, int, int]:
    """The chronicle PDF for one reader, made as the worker makes it (sheets.tasks.run_render, in
    this process): (seconds, pages, chapters). Once: WeasyPrint's time is the figure, not its spread."""
    from campaigns.models import Campaign, Membership
    from sheets import services, tasks
    from sheets.models import SheetKind, SheetRender

    campaign = Campaign.objects.get(pk=world["campaign"])
    membership = Membership.objects.get(campaign=campaign, user=world[persona])
    SheetRender.objects.filter(campaign=campaign, kind=SheetKind.CHRONICLE).delete()
    render, _ = services.request_render(world[persona], SheetKind.CHRONICLE, campaign, membership)
    begun = time.perf_counter()
    outcome = tasks.run_render(render.pk)
    seconds = time.perf_counter() - begun
    render.refresh_from_db()
    assert outcome == "done", (outcome, render.error)
    return seconds, render.pages or 0, len(render.snapshot["pages"][0]["record"]["chapters"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--debug", action="store_true")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--render", action="store_true", help="render the player's chronicle PDF once a size")
    args = parser.parse_args(argv or [])
    with tempfile.TemporaryDirectory(prefix="dossier-bench-") as var_dir:
        setup_django(var_dir, debug=args.debug, database_url=args.database_url)
        from django.db import connection
        from django.test import Client

        started = time.perf_counter()
        world = seed_missions(count=MISSIONS)
        print(f"   seeded {MISSIONS} missions in {time.perf_counter() - started:.1f} s")
        campaign = world["campaign"]
        print(f"   {connection.vendor}, {'DEBUG on' if args.debug else 'DEBUG off'}, {args.repeat} requests")
        for size in SIZES:
            add_sessions(campaign, world["gm"], size)
            for persona in ("gm", "player"):
                client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
                client.force_login(world[persona])
                for label, path in (
                    ("session page", f"/campaigns/{campaign}/play-sessions/{size}/"),
                    ("overview + recap", f"/campaigns/{campaign}/"),
                    ("handout", f"/campaigns/{campaign}/play-sessions/{size}/recap/"),
                    ("timeline", f"/campaigns/{campaign}/timeline/"),
                ):
                    for _ in range(3):
                        assert client.get(path).status_code == 200, path
                    wall = []
                    for _ in range(args.repeat):
                        begun = time.perf_counter()
                        client.get(path)
                        wall.append(time.perf_counter() - begun)
                    # the query counts' flatness is tests/campaigns/test_chronicle_costs_flat.py's
                    print(summary(f"{size} sessions, {persona}: {label}", wall))
                print(summary(f"{size} sessions, {persona}: book's record", book_record(world, persona)))
            if args.render:
                seconds, pages, chapters = book_render(world, "player")
                print(
                    f"   {size} sessions, player: the chronicle PDF in {seconds:.1f} s, {pages} pages,"
                    f" {chapters} chapters, {1000 * seconds / max(chapters, 1):.0f} ms a chapter"
                )


if __name__ == "__main__":
    main(sys.argv[1:])
