"""Costs as a campaign ages: every page and API list at 1x, 10x and 100x the data, side by side.

    .venv/bin/python bench/scale.py                          # SQLite, then PostgreSQL if it answers
    .venv/bin/python bench/scale.py --databases sqlite       # one database
    .venv/bin/python bench/scale.py --sizes 1 100 --repeat 9 # fewer worlds, fewer requests
    .venv/bin/python bench/run_all.py scale                  # as `make bench` runs it

A world at size N (1, 10, 100; or 0.1: 200 rolls) is one TIMEMASTER campaign with 2,000 x N rolls
(each with its live feed event, as the services write them; one in 50 secret, half of those
unannounced: the significance check a player must not learn of), a finished agent
with 10 x N ledger entries (bonus Success Points, one game session each: the entry that grew the
build), and a game master who is a member of 5 x N campaigns (the entries and campaigns at least 51:
a full page and one more, so that every size shows pages of the same length); seeded with
bulk_create where the rows need no engine, so the 100x world (200,000 rolls, 1,000 entries, 500
campaigns) seeds in seconds. Each world lives in its own process and its own database (a temporary
SQLite file, or ``<database-url>_<N>x`` on PostgreSQL, dropped and made again), so sizes never share
caches. The worlds of one database are alive at once and are timed in turns, a few requests each
(``TURN``), so that a slow minute of the machine falls on every size alike instead of showing as
growth (measured on the shared 2-core VM: the same request's CPU time moved by 30-40 % from one
minute to the next).

The targets are not a hand list: the URL conf is walked (``get_resolver()``) and every route is
asked with GET, its ids filled from the world by the parameter's name and the path segment in
front of it. A route that answers 405 to GET is POST-only and left out; one whose ids the world
cannot fill (an object of another game system) is listed as not covered; Django's admin is left
out. Each target is timed as the campaign's game master, and the pages a player reads most (the
campaign page, the dice page and its log, the roll list API, the live feed's catch-up, and their own
second agent's page, history page and history API, whose ledger is 10 x the whole part of N entries:
none at 0.1x, a character on its first evening) also as a player (rows "player ..."; issue 43: a
player's view filters what the GM sees, and that filter is where the cost grew). Each target is
timed in-process with Django's test client:
CPU ms (``time.process_time``, median of --repeat requests after warm-up, taken in turns with the
other sizes) and the queries one
request runs, measured once before ``ANALYZE`` (no planner statistics: a fresh database) and once
after it. The table gives, per target and database, the CPU ms at each size and the growth from
the smallest to the largest world; the issue's goal is every row within 1.5x. Figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for entry in (str(ROOT), str(HERE)):
    if entry not in sys.path:
        sys.path.insert(0, entry)

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/dossier_scale"
ROLLS, ENTRIES, CAMPAIGNS = 2_000, 10, 5  # per unit of size
# Every world's agent has at least one full page of history and one entry more (the history page
# and API show 50 a page): at 1x the 10 entries filled a fifth of a page, so the "growth" to 100x
# was mostly five times the rows shown, not a cost of the ledger's length (issue 22). The pages
# compared are now alike: 50 rows and a next link at each size; 1x has 51 entries, 100x 1,000.
HISTORY_PAGE = 50
# Likewise the game master is in at least a full page of campaigns and one more (the campaign list
# shows 50 a page): at 1x the 5 campaigns made a page of 5 cards against 50 at 100x.
CAMPAIGN_PAGE = 50
# Targets whose response is the whole ledger by nature (a character's archive document): besides
# the request's CPU ms, the table gives the cost per ledger entry, which is what must stay flat.
PER_ENTRY = ("character-export", "api-character-export")
#: The live feed's catch-up as timed: the client's cursor is this many events back from the newest.
LIVE_CATCH_UP = 50
SLOW_SECONDS = 1.0  # a target slower than this is timed 3 times, not --repeat
GROWTH_GOAL = 1.5


# -- the world ---------------------------------------------------------------------------------
def seed_world(size: int) -> dict:
    """The world at ``size``; returns the ids the route walker fills paths with."""
    import random

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from knox.models import AuthToken

    from campaigns import services
    from campaigns.models import NPC, Campaign, LiveEvent, Membership, Mission, Role, Roll
    from characters import services as character_services
    from characters.models import Character
    from sheets import services as sheet_services
    from sheets.tasks import run_render
    from tests.characters.conftest import agent_choices

    User = get_user_model()
    gm = User.objects.create_user("scale-gm", password="scale-bench-password")
    player = User.objects.create_user("scale-player", password="scale-bench-password")
    campaign = services.create_campaign(gm, name="Scale campaign", system="timemaster")
    membership = Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    gm_membership = Membership.objects.get(campaign=campaign, user=gm)
    missions = [Mission.objects.create(campaign=campaign, title=f"Mission {i}") for i in range(5)]
    npc = NPC.objects.create(campaign=campaign, system="timemaster", name="Scale NPC")
    invitation = services.create_invitation(campaign, gm)
    agent = character_services.finalize(
        character_services.create_draft(campaign, player, choices=agent_choices(name="Scale Agent")),
        is_gm=True,
        rng=random.Random(3),
    )
    entries = max(int(ENTRIES * size), HISTORY_PAGE + 1)
    for i in range(entries):
        character_services.append_entry(
            agent, {"kind": "sp_awarded", "type": "bonus", "amount": 10, "session": f"session-{i}"}, gm
        )
    # The player's own second agent, timed as its owner: a ledger of 10 x the whole part of the size,
    # so none at 0.1x (the first evening) and 1,000 entries at 100x (issue 43's measure).
    own_agent = character_services.finalize(
        character_services.create_draft(campaign, player, choices=agent_choices(name="Own Agent")),
        is_gm=True,
        rng=random.Random(4),
    )
    for i in range(ENTRIES * int(size)):
        character_services.append_entry(
            own_agent, {"kind": "sp_awarded", "type": "bonus", "amount": 10, "session": f"own-{i}"}, gm
        )
    render, _ = sheet_services.request_render(gm, "character", campaign, gm_membership, agent, "letter")
    assert run_render(render.pk) == "done", "the seed could not render the sheet"

    rng = random.Random(9)
    with transaction.atomic():
        others = Campaign.objects.bulk_create(
            Campaign(name=f"Other campaign {i:04d}", system="timemaster")
            for i in range(max(CAMPAIGNS * size, CAMPAIGN_PAGE + 1) - 1)
        )
        Membership.objects.bulk_create(Membership(campaign=c, user=gm, role=Role.GM) for c in others)

        def rolls():
            for i in range(int(ROLLS * size)):
                faces = [rng.randint(1, 10) for _ in range(3)]
                yield Roll(
                    campaign=campaign,
                    mission=missions[i % 5],
                    roller=player if i % 3 else gm,
                    kind="d10",
                    count=3,
                    faces=faces,
                    kept=faces,
                    total=sum(faces),
                    purpose=f"roll {i}",
                    secret=i % 50 == 0,
                    # half the secret rolls unannounced (the significance check): a player sees
                    # nothing of them, not even that they were made
                    announced=i % 100 != 0,
                )

        made = Roll.objects.bulk_create(rolls(), batch_size=2000)
        # Each roll's live feed event, in the order they were made, as rolling.record_roll writes it.
        LiveEvent.objects.bulk_create(
            (LiveEvent(campaign=campaign, kind=LiveEvent.Kind.ROLL, roll=roll) for roll in made),
            batch_size=2000,
        )
    roll = Roll.objects.filter(campaign=campaign).order_by("-id").first()
    # The live feed's catch-up: a client that last saw the event 50 back from the newest
    # (LIVE_CATCH_UP), as a page drawn a while ago reconnects.
    newest = LiveEvent.objects.filter(campaign=campaign).order_by("-id").values_list("public_id", flat=True)
    live_after = list(newest[:LIVE_CATCH_UP])[-1]
    return {
        "gm": gm.pk,
        "token": AuthToken.objects.create(user=gm)[1],  # knox hands the key out once, here
        "player": player.pk,
        "player_token": AuthToken.objects.create(user=player)[1],
        "own_agent": own_agent.pk,
        "live_after": live_after,
        "campaign": campaign.pk,
        "agent": agent.pk,
        "mission": missions[0].pk,
        "npc": npc.pk,
        "member": membership.pk,
        "invitation": invitation.pk,
        "code": invitation.code,
        "entry": agent.entries.order_by("-id").first().pk,
        "render": render.pk,
        "roll": roll.pk,
        "step": "review",
        "entries": entries,
        "build_bytes": len(json.dumps(Character.objects.get(pk=agent.pk).build)),
    }


# -- the routes --------------------------------------------------------------------------------
PARAM = re.compile(r"(?:([\w-]+)/)?(?:\(\?P<(\w+)>[^)]*\)|<(?:\w+:)?(\w+)>)")
BY_NAME = {
    "campaign_pk": "campaign",
    "character_pk": "agent",
    "mission_pk": "mission",
    "npc_pk": "npc",
    "member_pk": "member",
    "invitation_pk": "invitation",
    "entry_pk": "entry",
    "render_pk": "render",
    "code": "code",
    "step": "step",
}
BY_SEGMENT = {  # a parameter called "pk": the segment in front of it says what it is
    "campaigns": "campaign",
    "characters": "agent",
    "missions": "mission",
    "npcs": "npc",
    "members": "member",
    "invitations": "invitation",
    "rolls": "roll",
    "sheets": "render",
}


def walk(patterns=None, prefix: str = ""):
    """(route text, url name) of every route in the URL conf, included ones too."""
    from django.urls import URLResolver, get_resolver

    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        text = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
        if isinstance(pattern, URLResolver):
            yield from walk(pattern.url_patterns, text)
        else:
            yield text, pattern.name


def fill(route: str, name: str | None, world: dict) -> tuple[str | None, str]:
    """The path of ``route`` in this world, or None and why it cannot be filled."""
    from django.urls import NoReverseMatch, reverse

    kwargs = {}
    for segment, regex_name, route_name in PARAM.findall(route):
        param = regex_name or route_name
        what = BY_NAME.get(param) or (BY_SEGMENT.get(segment) if param == "pk" else None)
        if what is None or world.get(what) is None:
            return None, f"no {segment or param} in this world"
        kwargs[param] = world[what]
    if name is None:
        return None, "unnamed route"
    try:
        return reverse(name, kwargs=kwargs), ""
    except NoReverseMatch:
        return None, "does not reverse"


#: The routes also timed as a player (issue 43), by URL name: the pages a player reads most, whose
#: answer is what the player may see of the rolls (the live feed's catch-up included) or of their own
#: character's ledger. A player's character routes name the player's own agent (``own_agent``).
PLAYER_ROUTES = (
    "campaign-detail",
    "campaign-dice",
    "campaign-dice-log",
    "roll-list",
    "campaign-live",
    "character-detail",
    "character-history",
    "api-character-history",
)
PERSONAS = ("gm", "player")


def targets(world: dict, skip: tuple[str, ...] = (), only: tuple[str, ...] = ()) -> dict:
    """{label: {"route", "path", "persona", "status", "queries", "slow"} or {"route", "skipped"}} for
    every route of the URL conf that answers GET in this world as its game master, and the
    PLAYER_ROUTES as its player (labelled "player <name>"); each asked twice to warm it."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    out: dict[str, dict] = {}
    for persona in PERSONAS:
        client, api = _client(world, persona)
        ids = world if persona == "gm" else {**world, "agent": world["own_agent"]}
        seen = set()
        for route, name in walk():
            if route.startswith("admin/") or (route, name) in seen:
                continue
            if name in skip or (only and name not in only):
                continue
            if persona == "player" and name not in PLAYER_ROUTES:
                continue
            seen.add((route, name))
            path, why = fill(route, name, ids)
            label = f"{name or route}" if persona == "gm" else f"player {name}"
            if path is None:
                out[label] = {"skipped": why, "route": route}
                continue
            if name == "campaign-live":
                # the catch-up of a client LIVE_CATCH_UP events behind (a GET without a cursor would
                # wait LIVE_SYNC_WAIT_SECONDS for news under the test client)
                path += f"?after={world['live_after']}"
            extra = api if path.startswith("/api/") else {}
            first = time.perf_counter()
            response = _get(client, path, extra)
            took = time.perf_counter() - first
            if response.status_code == 405:
                out[label] = {"skipped": "POST only", "route": route}
                continue
            _get(client, path, extra)  # warm
            with CaptureQueriesContext(connection) as captured:
                response = _get(client, path, extra)
            out[label] = {
                "route": route,
                "path": path,
                "persona": persona,
                "status": response.status_code,
                "queries": len(captured.captured_queries),
                "slow": took > SLOW_SECONDS,
            }
    return out


def _get(client, path: str, extra: dict):
    """A GET, its streamed body (the live feed's) read to the end as a browser reads it."""
    response = client.get(path, **extra)
    if response.streaming:
        b"".join(response.streaming_content)
    return response


_CLIENT: dict = {}


def _client(world: dict, persona: str = "gm"):
    """This process's logged-in test client of the persona and the API's headers (one per world process)."""
    if persona not in _CLIENT:
        from django.contrib.auth import get_user_model
        from django.test import Client

        client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
        client.force_login(get_user_model().objects.get(pk=world[persona]))
        token = world["token" if persona == "gm" else "player_token"]
        _CLIENT[persona] = client, {"HTTP_AUTHORIZATION": f"Token {token}", "HTTP_ACCEPT": "application/json"}
    return _CLIENT[persona]


def time_requests(world: dict, path: str, count: int, persona: str = "gm") -> list[float]:
    """CPU seconds of ``count`` GET requests of ``path`` as the persona, one figure each."""
    client, api = _client(world, persona)
    extra = api if path.startswith("/api/") else {}
    cpu = []
    for _ in range(count):
        started = time.process_time()
        _get(client, path, extra)
        cpu.append(time.process_time() - started)
    return cpu


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def pause_autovacuum() -> None:
    """PostgreSQL's autovacuum would ANALYZE the fresh tables on its own: the "before ANALYZE"
    figures are of a database without planner statistics, so it waits until the run is over."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            cursor.execute(f'ALTER TABLE "{table}" SET (autovacuum_enabled = false)')


def child(
    size: int, database_url: str | None, skip: tuple[str, ...] = (), only: tuple[str, ...] = ()
) -> None:
    """One world in this process, serving the parent's requests for figures: one JSON line in, one out.

    ``{"op": "targets"}`` lists the routes and their queries, ``{"op": "time", "path": ..., "count": n}``
    times n requests, ``{"op": "analyze"}`` runs ANALYZE, ``{"op": "quit"}`` ends the process."""
    from pages import setup_django

    with tempfile.TemporaryDirectory(prefix="dossier-scale-") as var_dir:
        setup_django(var_dir, debug=False, database_url=database_url)
        pause_autovacuum()
        started = time.perf_counter()
        world = seed_world(size)
        from django.db import connection

        reply = {
            "size": size,
            "vendor": connection.vendor,
            "seeded": time.perf_counter() - started,
            "world": {key: world[key] for key in ("entries", "build_bytes")},
        }
        print("READY " + json.dumps(reply), flush=True)
        for line in sys.stdin:
            command = json.loads(line)
            if command["op"] == "targets":
                answer = targets(world, skip, only)
            elif command["op"] == "time":
                answer = time_requests(world, command["path"], command["count"], command.get("persona", "gm"))
            elif command["op"] == "analyze":
                analyze()
                answer = "ok"
            else:
                break
            print("ANSWER " + json.dumps(answer), flush=True)


# -- the parent: one process per world, all alive at once, timed in turns ----------------------------
class World:
    """A world's process (``child``), spoken to over its stdin and stdout."""

    def __init__(self, size: int, database: str, pg_url: str, skip: list[str], only: list[str]):
        url = None
        if database == "postgresql":
            url = f"{pg_url}_{str(size).replace('.', '_')}x"
            name = url.rsplit("/", 1)[1]
            base = url.rsplit("/", 1)[0]
            host = re.match(r"postgres(?:ql)?://(?:(\w+)@)?([\w.]+):?(\d+)?", base)
            user, hostname, port = host.group(1) or "postgres", host.group(2), host.group(3) or "5432"
            for command in ("dropdb", "createdb"):
                args = [command, "-h", hostname, "-p", port, "-U", user]
                subprocess.run([*args, *(["--if-exists"] if command == "dropdb" else []), name], check=True)
        command = [sys.executable, __file__, "--child", str(size)]
        command += [f"--skip={name}" for name in skip]
        command += [f"--only={name}" for name in only]
        if url:
            command += ["--database-url", url]
        self.size = size
        self.errors = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 - closed with the process
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors, text=True, cwd=ROOT
        )
        self.info: dict | None = None

    def _read(self, marker: str):
        for line in self.process.stdout:
            if line.startswith(marker + " "):
                return json.loads(line[len(marker) + 1 :])
        self.errors.seek(0)
        raise RuntimeError(f"the {self.size}x world stopped: {self.errors.read()[-4000:]}")

    def ready(self) -> dict:
        if self.info is None:
            self.info = self._read("READY")
        return self.info

    def ask(self, **command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self._read("ANSWER")

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.process.stdin.write(json.dumps({"op": "quit"}) + "\n")
                self.process.stdin.close()
            except BrokenPipeError:
                pass
            self.process.wait(timeout=60)
        self.errors.close()


#: Requests per turn: each world is timed a few requests at a time, in turns, so that whatever else the
#: machine does at that moment falls on every size alike (on a shared 2-core VM the CPU time of the same
#: request moved by 30-40 % between minutes; timed one world after the other, that showed as growth).
TURN = 3


def measure_worlds(worlds: list[World], repeat: int) -> dict[int, dict]:
    """{size: {label: {..., "ms"}}}: every target of the first world, timed in every world in turns."""
    listed = {world.size: world.ask(op="targets") for world in worlds}
    first = listed[worlds[0].size]
    samples: dict[int, dict[str, list[float]]] = {world.size: {} for world in worlds}
    for label, row in first.items():
        if "path" not in row:
            continue
        if not all("path" in listed[world.size].get(label, {}) for world in worlds):
            continue
        turns = 1 if any(listed[w.size][label]["slow"] for w in worlds) else -(-repeat // TURN)
        per_turn = 3 if turns == 1 else TURN
        for turn in range(turns):
            order = worlds if turn % 2 == 0 else worlds[::-1]  # neither size always goes first
            for world in order:
                row = listed[world.size][label]
                cpu = world.ask(op="time", path=row["path"], count=per_turn, persona=row["persona"])
                samples[world.size].setdefault(label, []).extend(cpu)
    out: dict[int, dict] = {}
    for world in worlds:
        rows = {}
        for label, row in listed[world.size].items():
            rows[label] = dict(row)
            if label in samples[world.size]:
                rows[label]["ms"] = statistics.median(samples[world.size][label]) * 1000
        out[world.size] = rows
    return out


def run_database(database: str, pg_url: str, sizes: list[int], repeat: int, skip, only) -> list[dict]:
    """Every size of one database, seeded side by side and timed in turns, before and after ANALYZE."""
    worlds = [World(size, database, pg_url, skip, only) for size in sizes]
    try:
        for world in worlds:
            info = world.ready()
            print(f"   {database} {world.size}x: seeded in {info['seeded']:.1f} s", flush=True)
        started = time.perf_counter()
        plain = measure_worlds(worlds, repeat)
        for world in worlds:
            world.ask(op="analyze")
        analyzed = measure_worlds(worlds, repeat)
        print(f"   {database}: measured in {time.perf_counter() - started:.0f} s", flush=True)
        return [
            {**world.ready(), "plain": plain[world.size], "analyzed": analyzed[world.size]}
            for world in worlds
        ]
    finally:
        for world in worlds:
            world.close()


def postgres_answers(pg_url: str) -> bool:
    host = re.match(r"postgres(?:ql)?://(?:(\w+)@)?([\w.]+):?(\d+)?", pg_url)
    try:
        done = subprocess.run(
            ["pg_isready", "-h", host.group(2), "-p", host.group(3) or "5432"], capture_output=True
        )
    except FileNotFoundError:
        return False
    return done.returncode == 0


def table(results: list[dict], sizes: list[int]) -> str:
    """One row per target: per database and planner state, ms at each size and the growth."""
    columns = []
    for vendor in dict.fromkeys(r["vendor"] for r in results):
        for phase in ("plain", "analyzed"):
            columns.append((vendor, phase))
    by = {(r["vendor"], r["size"]): r for r in results}
    labels = list(dict.fromkeys(label for r in results for label in r["plain"]))
    head = "| target | " + " | ".join(
        f"{vendor} {'ANALYZE' if phase == 'analyzed' else 'no stats'} ms {'/'.join(f'{s}x' for s in sizes)}"
        " (queries) growth"
        for vendor, phase in columns
    )
    lines = [head + " |", "|---|" + "---|" * len(columns)]
    skipped = []
    worst = []
    for label in labels:
        cells = []
        for vendor, phase in columns:
            rows = [by.get((vendor, s), {}).get(phase, {}).get(label, {}) for s in sizes]
            if any("ms" not in row for row in rows):
                cells.append(None)
                continue
            ms = [row["ms"] for row in rows]
            queries = "/".join(str(row["queries"]) for row in rows)
            growth = ms[-1] / ms[0] if ms[0] else float("inf")
            flag = " **over**" if growth > GROWTH_GOAL else ""
            cells.append(f"{' / '.join(f'{v:.1f}' for v in ms)} ({queries}) {growth:.2f}x{flag}")
            worst.append((growth, label, vendor, phase))
        if all(cell is None for cell in cells):
            first = next(r["plain"][label] for r in results if label in r["plain"])
            skipped.append(f"- {first.get('route')}: {first.get('skipped')}")
            continue
        statuses = {r["plain"][label].get("status") for r in results if label in r["plain"]} - {200, None}
        shown = label + (f" [{'/'.join(map(str, sorted(statuses)))}]" if statuses else "")
        lines.append(f"| {shown} | " + " | ".join(cell or "-" for cell in cells) + " |")
        if label in PER_ENTRY:
            lines.append(
                f"| {label} per ledger entry | "
                + " | ".join(per_entry(by, label, c, sizes) for c in columns)
                + " |"
            )
    over = [w for w in worst if w[0] > GROWTH_GOAL]
    summary = f"\n{len(lines) - 2} targets; {len(over)} cells over {GROWTH_GOAL}x" + (
        f" (worst {max(over)[0]:.2f}x: {max(over)[1]}, {max(over)[2]} {max(over)[3]})" if over else ""
    )
    return "\n".join(lines) + summary + "\n\nnot timed:\n" + "\n".join(skipped)


def per_entry(by: dict, label: str, column: tuple[str, str], sizes: list[int]) -> str:
    """µs per ledger entry at each size, and its growth: the cost of a document that is the whole
    ledger, divided by the ledger's length (what must stay flat for such a target)."""
    vendor, phase = column
    values = []
    for size in sizes:
        result = by.get((vendor, size), {})
        row = result.get(phase, {}).get(label, {})
        entries = result.get("world", {}).get("entries")
        if "ms" not in row or not entries:
            return "-"
        values.append(row["ms"] * 1000 / entries)
    growth = values[-1] / values[0]
    flag = " **over**" if growth > GROWTH_GOAL else ""
    return f"{' / '.join(f'{v:.0f}' for v in values)} µs {growth:.2f}x{flag}"


def compare(before: list[dict], after: list[dict]) -> str:
    """A markdown table: per target and database/planner state, growth from the smallest to the
    largest world before and after (two --json files of runs with the same sizes)."""

    def growths(results: list[dict]) -> dict:
        sizes = sorted({r["size"] for r in results})
        by = {(r["vendor"], r["size"]): r for r in results}
        out = {}
        for vendor in dict.fromkeys(r["vendor"] for r in results):
            for phase in ("plain", "analyzed"):
                small = by.get((vendor, sizes[0]), {}).get(phase, {})
                large = by.get((vendor, sizes[-1]), {}).get(phase, {})
                for label, row in large.items():
                    if "ms" in row and "ms" in small.get(label, {}):
                        out[label, vendor, phase] = (
                            small[label]["ms"],
                            row["ms"],
                            small[label]["queries"],
                            row["queries"],
                        )
        return out

    old, new = growths(before), growths(after)
    columns = list(dict.fromkeys((vendor, phase) for _, vendor, phase in [*old, *new]))
    names = {"plain": "no stats", "analyzed": "ANALYZE"}
    lines = [
        "| target | "
        + " | ".join(f"{vendor} {names[phase]}: before → after" for vendor, phase in columns)
        + " |",
        "|---|" + "---|" * len(columns),
    ]

    def cell(figures) -> str:
        if figures is None:
            return "–"
        small, large, q_small, q_large = figures
        return f"{small:.1f}→{large:.1f} ms ×{large / small:.2f}" + (
            f" q{q_small}→{q_large}" if q_small != q_large else ""
        )

    for label in dict.fromkeys(label for label, _, _ in [*new, *old]):
        cells = [f"{cell(old.get((label, *c)))} ⇒ {cell(new.get((label, *c)))}" for c in columns]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv or [])
    if args.compare:
        before, after = (json.loads(Path(name).read_text()) for name in args.compare)
        print(compare(before, after))
        return
    if args.child is not None:
        child(args.child, args.database_url, tuple(args.skip), tuple(args.only))
        return
    databases = args.databases
    pg_url = args.database_url or DEFAULT_PG
    if "postgresql" in databases and not postgres_answers(pg_url):
        print("   PostgreSQL does not answer: SQLite only")
        databases = [d for d in databases if d != "postgresql"]
    results = []
    for database in databases:
        results += run_database(database, pg_url, args.sizes, args.repeat, args.skip, args.only)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print(table(results, args.sizes))


def _size(text: str) -> int | float:
    """A world's size: a whole number, or a fraction of one (0.1: 200 rolls, the issue's first evening)."""
    value = float(text)
    return int(value) if value.is_integer() else value


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--databases", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--sizes", nargs="+", type=_size, default=[1, 10, 100])
    parser.add_argument("--repeat", type=int, default=15, help="requests per target (15)")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_SCALE_DATABASE_URL"),
        help=f"PostgreSQL base name; each size gets its own database (default {DEFAULT_PG}_<N>x)",
    )
    parser.add_argument("--json", help="also write the raw figures to this file")
    parser.add_argument(
        "--skip", action="append", default=[], help="leave out the route of this URL name (repeatable)"
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="time only the route of this URL name (repeatable): a second, longer look at noisy rows",
    )
    parser.add_argument(
        "--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="the before/after table of two --json files"
    )
    parser.add_argument("--child", type=_size, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
