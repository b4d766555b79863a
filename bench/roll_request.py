"""The CPU of one click-to-roll in process, and of the request path under it (issue 47).

    .venv/bin/python bench/roll_request.py                 # SQLite in a temporary folder
    DATABASE_URL=postgres://.../bench .venv/bin/python bench/roll_request.py   # emptied first!
    .venv/bin/python bench/roll_request.py --rounds 3 --profile var/roll.prof
    .venv/bin/python bench/roll_request.py --parts       # and the CPU of the roll's parts

The same tables as bench/live.py (a GM and four players each, their seeds made, each player's
agent; DEBUG off), then, in this one process, through ``config.asgi.application`` called as
uvicorn calls it (the ASGI scope, the body, the response read), each round measures the process's
CPU (``time.process_time``: the event loop and the request's thread) per request of:

- ``empty GET``: a view that returns "" to a signed-in user (``login_required``): the floor of
  Django's request path here (the middleware, the session and the user read, the thread hop);
- ``empty POST``: the same view through the CSRF check, with the body click-to-roll sends;
- ``click-to-roll``: ``POST /characters/N/roll/`` as htmx sends it (the players' agents in turn,
  the rolls committed, their after-commit work done);
- ``fan-out``: the hub's reading of one roll for its table's five streams (``live.render_for``:
  the GM's line and the members' line), once per roll as one process holding the table does.

It prints the database statements of one click-to-roll (every statement a cursor executes; the
BEGIN and COMMIT of the roll's transaction are not statements Django logs) and, per round, the
CPU per request in ms. Figures only: nothing here fails on a time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.append(str(HERE))  # after the project: bench/sheets.py is no ``sheets`` app

import live as live_bench  # noqa: E402 (bench/live.py: the same environment and tables)

EMPTY_PATH = "/bench/empty/"


def _empty_view(request):
    from django.http import HttpResponse

    return HttpResponse("")


def _urls():
    """The project's URLs and the empty view (this module is the URL conf while it runs)."""
    from django.contrib.auth.decorators import login_required
    from django.urls import include, path

    return [path(EMPTY_PATH.strip("/") + "/", login_required(_empty_view)), path("", include("config.urls"))]


def _scope(method: str, path: str, headers: dict[str, str], body: bytes) -> dict:
    raw = [(name.lower().encode(), value.encode()) for name, value in headers.items()]
    if body:
        raw.append((b"content-length", str(len(body)).encode()))
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": raw,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def _call(application, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> int:
    """One request through the ASGI application, as uvicorn makes it; its status."""
    sent = False
    status = 0

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)  # the client stays connected
        return {"type": "http.disconnect"}

    async def send(message):
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await application(_scope(method, path, headers, body), receive, send)
    return status


#: The parts of a click-to-roll timed by ``--parts``: (label, module, function), outermost first.
PARTS = (
    ("the middleware and the view", "config.asgi", "OneBlockASGIHandler.get_response"),
    ("  access check (character, membership)", "characters.access", "get_character_for_user"),
    ("  roll_from_sheet", "campaigns.table.sheet_rolls", "roll_from_sheet"),
    ("    the mission under way", "campaigns.table.sheet_rolls", "_context"),
    ("    record_roll", "campaigns.services", "record_roll"),
    ("      fair draw", "campaigns.table.fairness", "draw"),
    ("      proof", "campaigns.table.fairness", "prove"),
    ("      Merkle append", "campaigns.table.rolllog", "append"),
    ("      live event", "campaigns.table.live", "_publish"),
    ("  the result line rendered", "campaigns.table.sheet_rolls", "render"),
    ("the webhooks check (after the commit)", "campaigns.table.webhooks", "roll_made"),
)


async def _parts(roll, count: int) -> None:
    """Each part's CPU per click-to-roll (``time.thread_time`` around it, inclusive of what it
    calls), over ``count`` more rolls."""
    import importlib

    spent: dict[str, float] = {}
    undo = []
    for label, module_name, dotted in PARTS:
        owner = importlib.import_module(module_name)
        *path, name = dotted.split(".")
        for attribute in path:
            owner = getattr(owner, attribute)
        original = getattr(owner, name)

        def timed(*args, _original=original, _label=label, **kwargs):
            began = time.thread_time()
            try:
                return _original(*args, **kwargs)
            finally:
                spent[_label] = spent.get(_label, 0.0) + time.thread_time() - began

        setattr(owner, name, timed)
        undo.append((owner, name, original))
    try:
        for i in range(count):
            assert await roll(i) == 200
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)
    print("   a click-to-roll's parts, CPU per roll (ms, each inclusive of the parts under it):")
    for label, _, _ in PARTS:
        print(f"     {label:<44} {1000 * spent.get(label, 0.0) / count:6.2f}")


def _profiled(profiler, get_response, request):
    """The middleware and the view of one request under cProfile, in the request's own thread."""
    profiler.enable()
    try:
        return get_response(request)
    finally:
        profiler.disable()


def _headers(session: str, post: bool) -> dict[str, str]:
    headers = {
        "host": "127.0.0.1",
        "cookie": f"sessionid={session}; csrftoken={live_bench.CSRF}",
        "hx-request": "true",
    }
    if post:
        headers.update({"content-type": "application/x-www-form-urlencoded", "x-csrftoken": live_bench.CSRF})
    return headers


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rolls", type=int, default=300, help="requests of each kind per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--parts",
        action="store_true",
        help="the CPU of the click-to-roll's parts (each function's own thread's CPU, inclusive)",
    )
    parser.add_argument(
        "--profile", default="", help="cProfile the middleware and view of the last round's click-to-rolls"
    )
    args = parser.parse_args(argv if argv is not None else [])
    with tempfile.TemporaryDirectory(prefix="dossier-bench-roll-") as tmp:
        env = live_bench.environment(Path(tmp), "")
        if env["DATABASE_URL"].startswith("postgres"):  # the bench's own database: emptied first
            subprocess.run(
                [str(live_bench.VENV_BIN / "python"), "manage.py", "flush", "--noinput", "-v0"],
                cwd=live_bench.ROOT,
                env=env,
                check=False,  # a new database has no tables to empty yet
            )
        tables = live_bench.seed(env, args.tables, 5)
        os.environ.update(env)
        asyncio.run(_run(args, tables))


async def _run(args, tables: list[dict]) -> None:
    from django.conf import settings
    from django.db.backends import utils
    from django.test import RequestFactory
    from django.urls import clear_url_caches

    import config.asgi
    from campaigns.models import LiveEvent, Membership
    from campaigns.table import live

    # The request log writes its lines as a server does (their formatting is part of a request's
    # CPU), to nowhere: the figures are this script's output.
    quiet = open(os.devnull, "w")  # noqa: SIM115 (open while the process runs)
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(quiet)
    settings.ROOT_URLCONF = __name__
    clear_url_caches()
    globals()["urlpatterns"] = _urls()
    application = config.asgi.application
    players = [(table, member) for table in tables for member in table["members"][1:]]
    gm_request = RequestFactory().get("/", HTTP_COOKIE=f"csrftoken={live_bench.CSRF}")
    gm_request.COOKIES["csrftoken"] = live_bench.CSRF

    from asgiref.sync import sync_to_async

    def members_of() -> dict[int, list]:
        """campaign -> its members' users, the GM first."""
        found: dict[int, list] = {}
        for membership in Membership.objects.select_related("user").order_by("campaign_id", "id"):
            found.setdefault(membership.campaign_id, []).append(membership.user)
        return found

    members = await sync_to_async(members_of, thread_sensitive=False)()

    def readers_of(table: dict) -> list[live.Reader]:
        users = members[table["campaign"]]
        return [live.Reader(user, 0, gm_request if index == 0 else None) for index, user in enumerate(users)]

    async def roll(i: int) -> int:
        table, member = players[i % len(players)]
        body = urlencode({"spec": member["spec"]}).encode()
        return await _call(
            application,
            "POST",
            f"/characters/{member['agent']}/roll/",
            _headers(member["session"], True),
            body,
        )

    # the statements of one click-to-roll (after a warm-up roll of that table)
    assert await roll(0) == 200

    # Each request runs in a thread of its own (asgiref's thread-sensitive context), with its own
    # connection: the statements are caught where every cursor executes them.
    statements: list[str] = []
    original = utils.CursorWrapper._execute_with_wrappers

    def counted(self, sql, params, many, executor):
        statements.append(sql)
        return original(self, sql, params, many, executor)

    utils.CursorWrapper._execute_with_wrappers = counted
    try:
        assert await roll(0) == 200
    finally:
        utils.CursorWrapper._execute_with_wrappers = original
    print(
        f"   one click-to-roll: {len(statements)} statements (the transaction's BEGIN and COMMIT not counted)"
    )
    for number, sql in enumerate(statements, 1):
        print(f"     {number:2d} {sql[:150]}")

    kinds = {
        "empty GET": lambda i: _call(
            application, "GET", EMPTY_PATH, _headers(players[i % len(players)][1]["session"], False)
        ),
        "empty POST": lambda i: _call(
            application,
            "POST",
            EMPTY_PATH,
            _headers(players[i % len(players)][1]["session"], True),
            b"spec=x",
        ),
        "click-to-roll": roll,
    }
    for i in range(20):  # warm every path and every table's rows
        for kind, request in kinds.items():
            assert await request(i) == 200, kind

    def fan_out(count: int) -> float:
        """The hub's reading of each table's newest roll for its five streams, ``count`` times."""
        live.keep_connection()
        cursors = {}
        for table in tables:
            ids = list(
                LiveEvent.objects.filter(campaign_id=table["campaign"])
                .order_by("-id")
                .values_list("id", flat=True)[:2]
            )
            cursors[table["campaign"]] = ids[1] if len(ids) > 1 else 0
        started = time.process_time()
        for i in range(count):
            table = tables[i % len(tables)]
            readers = readers_of(table)
            for reader in readers:
                reader.seq = cursors[table["campaign"]]
            live.forget()  # each roll's lines are new to the process
            batches = live.render_for(table["campaign"], readers)
            assert all(batch.text for batch in batches), "a reader was sent nothing"
        return time.process_time() - started

    figures: dict[str, list[float]] = {kind: [] for kind in [*kinds, "fan-out"]}
    handler, profiler = config.asgi.django_application, cProfile.Profile()
    for round_number in range(args.rounds):
        for kind, request in kinds.items():
            profiled = kind == "click-to-roll" and args.profile and round_number == args.rounds - 1
            if profiled:
                handler.get_response = functools.partial(_profiled, profiler, handler.get_response)
            started = time.process_time()
            for i in range(args.rolls):
                status = await request(i)
                assert status == 200, (kind, status)
            figures[kind].append(1000 * (time.process_time() - started) / args.rolls)
            if profiled:
                del handler.get_response
                profiler.dump_stats(args.profile)
        spent = await sync_to_async(fan_out, thread_sensitive=False)(args.rolls)
        figures["fan-out"].append(1000 * spent / args.rolls)
        print(
            f"   round {round_number + 1}: "
            + "  ".join(f"{kind} {values[-1]:.2f} ms" for kind, values in figures.items())
            + f"  (load {os.getloadavg()[0]:.2f})"
        )
    if args.parts:
        await _parts(roll, args.rolls)
    print("   CPU per request, median of the rounds (ms):")
    for kind, values in figures.items():
        rounds = ", ".join(f"{value:.2f}" for value in values)
        print(f"     {kind:<14} {statistics.median(values):6.2f}  (rounds: {rounds})")
    roll_ms, fan_ms = statistics.median(figures["click-to-roll"]), statistics.median(figures["fan-out"])
    print(f"   click-to-roll and one process's fan-out: {roll_ms + fan_ms:.2f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
