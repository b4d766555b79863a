"""Search at the issue's size (issue 50, part 5): a campaign with 100 play sessions and 50,000 rolls
beside one with 10 sessions and 5,000 rolls, both in one database (so the index holds both).

    .venv/bin/python bench/search.py                               # SQLite (FTS5)
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dossier_bench .venv/bin/python bench/search.py
    .venv/bin/python bench/search.py --repeat 30                   # fewer requests

Each campaign has, per session, two notes (one shared, one the GM's), its rolls (one in 50 secret,
half of those unannounced), and besides 200 NPCs (half revealed, each with GM notes), 30 missions
and 20 characters, all written with ``bulk_create`` (the index's triggers see those too). Each
query (a word in one roll in ten, a rare word, a prefix, two words, a word found nowhere) is asked
on the search page and the API, as the GM and as a player, through Django's test client with
DEBUG off; the figures are CPU ms per request (p50, p95: ``time.process_time``, what holds still
on a shared machine), the wall p95, and the queries one request runs, before and after ANALYZE.
Figures only: nothing fails on a time.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
for entry in (str(HERE.parent), str(HERE)):
    if entry not in sys.path:
        sys.path.insert(0, entry)

from pages import setup_django  # noqa: E402


def measure(fn, *, repeat: int, warmup: int = 3) -> list[tuple[float, float]]:
    """(wall seconds, CPU seconds) per call: on a shared machine the CPU time is the figure that
    holds still (the wall time counts the waits for a core); both are printed."""
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        out.append((time.perf_counter() - wall, time.process_time() - cpu))
    return out


PURPOSES = [
    "Climb the wall", "Sneak past the guard", "Shoot the lock", "Dodge", "Listen at the door",
    "Swim the canal", "Read the cipher", "Drive the truck", "Bribe the clerk", "Search the desk",
]  # fmt: skip
QUERIES = {
    "common word (1 roll in 10)": "climb",
    "rare word": "sigil",
    "prefix": "cip",
    "two words": "guard sneak",
    "nothing found": "xylophone",
}


def seed(name: str, sessions: int, rolls: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from campaigns import services
    from campaigns.models import NPC, Membership, Mission, Note, NoteVisibility, PlaySession, Role, Roll
    from characters.models import Character

    User = get_user_model()
    gm = User.objects.create_user(f"{name}-gm", password="bench-password-1")
    player = User.objects.create_user(f"{name}-player", password="bench-password-1")
    campaign = services.create_campaign(gm, name=name, system="timemaster")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    rng = random.Random(7)
    start = timezone.now() - timedelta(days=sessions * 7)
    made = PlaySession.objects.bulk_create(
        PlaySession(
            campaign=campaign, number=n, title=f"Evening {n}", date=(start + timedelta(days=7 * n)).date(),
            started_at=start + timedelta(days=7 * n), ended_at=start + timedelta(days=7 * n, hours=4),
        )
        for n in range(1, sessions + 1)
    )  # fmt: skip
    Note.objects.bulk_create(
        Note(
            campaign=campaign, play_session=session, author=gm, title=f"Recap {session.number}",
            visibility=visibility,
            body=f"We {rng.choice(PURPOSES).lower()} and met [[Agent {session.number % 20}]]. " * 5,
        )
        for session in made
        for visibility in (NoteVisibility.SHARED, NoteVisibility.GM)
    )  # fmt: skip
    per_session = rolls // sessions
    batch = []
    for i in range(rolls):
        session = made[min(i // per_session, sessions - 1)]
        secret = i % 50 == 0
        purpose = PURPOSES[i % len(PURPOSES)] + (" under the sigil" if i % 9973 == 0 else "")
        batch.append(
            Roll(
                campaign=campaign, kind="percent", total=rng.randint(1, 100), faces=[1], purpose=purpose,
                secret=secret, announced=not (secret and i % 100 == 0), roller=gm,
            )
        )  # fmt: skip
    made_rolls = Roll.objects.bulk_create(batch, batch_size=2000)
    # bulk_create stamps created_at with the moment of writing (auto_now_add); bulk_update writes
    # the time given: each roll in its session (until stop 57 every roll was "now").
    for i, roll in enumerate(made_rolls):
        session = made[min(i // per_session, sessions - 1)]
        roll.created_at = session.started_at + timedelta(seconds=i % per_session)
    Roll.objects.bulk_update(made_rolls, ["created_at"], batch_size=1000)
    NPC.objects.bulk_create(
        NPC(campaign=campaign, system="timemaster", name=f"Contact {i}", revealed=i % 2 == 0,
            public_description="A face in the crowd.", gm_notes="Knows the cipher." if i % 10 == 0 else "")
        for i in range(200)
    )  # fmt: skip
    Mission.objects.bulk_create(
        Mission(campaign=campaign, title=f"Operation {i}", briefing="Cross the guard line.")
        for i in range(30)
    )
    Character.objects.bulk_create(
        Character(campaign=campaign, owner=player, system="timemaster", name=f"Agent {i}", status="active")
        for i in range(20)
    )
    return {"campaign": campaign.pk, "gm": gm, "player": player}


def run(worlds: dict, repeat: int, label: str) -> None:
    from django.db import connection
    from django.test import Client

    print(f"\n== {connection.vendor}, {label} ==")
    head = f"{'campaign':<22} {'reader':<7} {'query':<28} {'where':<5} {'CPU p50':>7} {'CPU p95':>7}"
    print(f"   {head} {'wall p95':>8} {'queries':>7}")
    for world_name, world in worlds.items():
        for reader in ("gm", "player"):
            client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
            client.force_login(world[reader])
            for what, q in QUERIES.items():
                for where, path in (
                    ("page", f"/campaigns/{world['campaign']}/search/"),
                    ("api", f"/api/v1/campaigns/{world['campaign']}/search/"),
                ):
                    assert client.get(path, {"q": q}).status_code == 200
                    queries: list[str] = []  # a request resets Django's query log: count them as they run

                    def counted(execute, sql, params, many, context, queries=queries):
                        queries.append(sql)
                        return execute(sql, params, many, context)

                    with connection.execute_wrapper(counted):
                        client.get(path, {"q": q})
                    ask = lambda client=client, path=path, q=q: client.get(path, {"q": q})  # noqa: E731
                    times = measure(ask, repeat=repeat)
                    cpu = sorted(c * 1000 for _, c in times)
                    wall = sorted(w * 1000 for w, _ in times)
                    p95 = min(len(cpu) - 1, round(0.95 * (len(cpu) - 1)))
                    print(
                        f"   {world_name:<22} {reader:<7} {what:<28} {where:<5} {cpu[len(cpu) // 2]:7.1f}"
                        f" {cpu[p95]:7.1f} {wall[p95]:8.1f} {len(queries):7d}"
                    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=60)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument(
        "--analyzed-only",
        action="store_true",
        help="measure only with planner statistics (what autovacuum gives a database in use)",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("REQUEST_LOG_LEVEL", "WARNING")  # the figures, not a line per request
    with tempfile.TemporaryDirectory(prefix="dossier-bench-search-") as var_dir:
        setup_django(var_dir, debug=False, database_url=args.database_url)
        from django.db import connection

        worlds = {
            "10 sessions, 5k rolls": seed("search-small", 10, 5_000),
            "100 sessions, 50k rolls": seed("search-large", 100, 50_000),
        }
        if not args.analyzed_only:
            run(worlds, args.repeat, "fresh database (no planner statistics)")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        run(worlds, args.repeat, "after ANALYZE")


if __name__ == "__main__":
    main()
