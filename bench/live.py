"""Live feed: 2,000 connected clients (400 tables of 5), each table rolling once every 10 s.

    .venv/bin/python bench/live.py --help
    .venv/bin/python bench/live.py                         # the issue's figures (about 2 minutes)
    .venv/bin/python bench/live.py --tables 40 --roll-seconds 20   # a quick look
    .venv/bin/python bench/live.py --redis redis://127.0.0.1:6379/13   # pub/sub instead of the poll

It migrates a SQLite database of its own in a temporary DOSSIER_VAR_DIR (or the PostgreSQL one
DATABASE_URL names), makes the tables (a GM and four players each, every one signed in with a
session of their own, the players with an API token), starts `uvicorn config.asgi` on 127.0.0.1
and a free port (one process, DEBUG off, as make run serves), and then, with httpx's async client,
in bounded phases that end by themselves:

1. connect: every member of every table opens their campaign's live feed (GET /campaigns/N/live/);
2. idle: nothing happens for --idle-seconds: the server's CPU then is what idle clients cost;
3. rolling: for --roll-seconds each table rolls once every --every seconds (a player of the table,
   through the character page's click-to-roll, POST /characters/N/roll/ as htmx sends it; or with
   --through api the plain dice API, POST /api/v1/campaigns/N/rolls/),
   the tables spread evenly over the period; every other member of the table must receive the
   roll's line: delivery latency is from just before the roll request is sent to the moment each
   of them has read the message;
4. drain, then every stream is closed and the server stopped.

Printed: connections held, delivery latency p50/p95/max and any delivery missing, the roll
request's server time p50/p95 (the duration dossier's request log gives the POST: middleware,
view, database, not the client's queue) and as the client saw it, the CPU of the server and of
this client in each phase (from /proc), and the machine's load and CPU use in each phase: on a
shared 2-core machine the latencies depend on what else runs; the CPU figures much less.
Only loopback is ever contacted. Figures only: nothing here fails on a time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
SECRET_KEY = "bench-live-secret-key-0123456789abcdefghijklmnopqrstuvwxyz-0123456789"
#: The CSRF secret every bench browser holds (cookie and form field): Django accepts the unmasked one.
CSRF = "benchcsrfsecret0123456789abcdefg"


# --- the machine ----------------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    """utime + stime of the server, in seconds (Linux /proc): every process of its process group
    (uvicorn --workers N: the supervisor and its workers)."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[2]) == pid:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all cores (/proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


@dataclass
class Phase:
    name: str
    server_pid: int
    started: float = 0.0
    wall: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    machine_busy: float = 0.0
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    _marks: tuple = field(default=(), repr=False)

    def __enter__(self):
        self.started = time.monotonic()
        self._marks = (cpu_seconds(self.server_pid), time.process_time(), machine_ticks())
        return self

    def __exit__(self, *exc):
        self.wall = time.monotonic() - self.started
        server0, client0, (busy0, total0) = self._marks
        busy1, total1 = machine_ticks()
        self.server_cpu = cpu_seconds(self.server_pid) - server0
        self.client_cpu = time.process_time() - client0
        self.machine_busy = (busy1 - busy0) / max(1, total1 - total0)
        self.load = os.getloadavg()

    def line(self) -> str:
        cores = os.cpu_count() or 1
        return (
            f"   {self.name:<8} {self.wall:6.1f} s  server CPU {100 * self.server_cpu / self.wall:5.1f} % of "
            f"one core  client CPU {100 * self.client_cpu / self.wall:5.1f} %  machine busy "
            f"{100 * self.machine_busy:5.1f} % of {cores} cores  load {self.load[0]:.2f} {self.load[1]:.2f}"
        )


# --- setting up -------------------------------------------------------------------------------------
def environment(var_dir: Path, redis_url: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "LIVE_")) and key not in ("CACHE_URL",)
    }
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "DOSSIER_VAR_DIR": str(var_dir),
            "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{var_dir / 'live.sqlite3'}",
            "CELERY_BROKER_URL": f"sqla+sqlite:///{var_dir / 'broker.sqlite3'}",
            "LIVE_REDIS_URL": redis_url,
            "LOG_FORMAT": "json",
            "LOG_LEVEL": "INFO",
            "JOB_LOG_LEVEL": "WARNING",
        }
    )
    return env


SEED = r"""
import json, os
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from knox.models import AuthToken
from campaigns.models import Campaign, Membership, Role
from campaigns.services import settings_for

tables, size = int(os.environ["BENCH_LIVE_TABLES"]), int(os.environ["BENCH_LIVE_SIZE"])
User = get_user_model()
users = User.objects.bulk_create(
    [User(username=f"t{t}-m{m}", password="!") for t in range(tables) for m in range(size)]
)
defaults = settings_for("timemaster", "", {})
campaigns = Campaign.objects.bulk_create(
    [Campaign(name=f"Table {t}", system="timemaster", settings=defaults) for t in range(tables)]
)
Membership.objects.bulk_create(
    [
        Membership(campaign=campaigns[t], user=users[t * size + m], role=Role.GM if m == 0 else Role.PLAYER)
        for t in range(tables)
        for m in range(size)
    ]
)
# Tables in play: each has opened its dice page before, so its fair dice seed and its players' seeds
# exist (a campaign's very first roll makes them: five more writes, once in its life).
from campaigns.table import fairness
for campaign in campaigns:
    fairness.current_seed(campaign)
    fairness.players_seeds(campaign)
# Each player's agent, for the sheet's click-to-roll: one finished through the engine, the rest
# copies of its build (the roll reads the build; the copies need no engine run each).
import random
from characters import services as character_services
from characters.models import Character
from characters.rolls import roll_specs
from tests.characters.conftest import agent_choices
template = character_services.finalize(
    character_services.create_draft(campaigns[0], users[1], choices=agent_choices(name="Bench Agent")),
    is_gm=True,
    rng=random.Random(3),
)
spec = next(
    key
    for key, found in roll_specs(template, template.campaign.memberships.get(user=users[1])).items()
    if not found.secret and key.startswith("ability:")
)
agents = {users[1].pk: template}
agents.update(
    (character.owner_id, character)
    for character in Character.objects.bulk_create(
        [
            Character(
                campaign=campaigns[t], owner=users[t * size + m], system="timemaster", name=f"Agent {t}-{m}",
                status=template.status, build=template.build, creation_build=template.creation_build,
                revision=template.revision,
            )
            for t in range(tables)
            for m in range(1, size)
            if (t, m) != (0, 1)
        ]
    )
)
out = []
backend = "django.contrib.auth.backends.ModelBackend"
for t in range(tables):
    members = []
    for m in range(size):
        user = users[t * size + m]
        session = SessionStore()
        session[SESSION_KEY], session[BACKEND_SESSION_KEY] = str(user.pk), backend
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        token = AuthToken.objects.create(user)[1] if m else ""
        agent = agents[user.pk].pk if m else None
        members.append({"session": session.session_key, "token": token, "agent": agent, "spec": spec})
    out.append({"campaign": campaigns[t].pk, "members": members})
from django.db import connection
if connection.vendor == "postgresql":
    # The tables were just filled: their statistics now, not by autovacuum in the middle of the
    # measured phases (a database in service is not one minute old).
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
print("SEEDED" + json.dumps(out))
"""


def seed(env: dict[str, str], tables: int, size: int) -> list[dict]:
    python = str(VENV_BIN / "python")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    done = subprocess.run(
        [python, "manage.py", "shell", "-c", SEED],
        cwd=ROOT,
        env={**env, "BENCH_LIVE_TABLES": str(tables), "BENCH_LIVE_SIZE": str(size)},
        check=True,
        capture_output=True,
        text=True,
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("SEEDED"))
    return json.loads(line.removeprefix("SEEDED"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(env: dict[str, str], port: int, log: Path, workers: int = 1) -> subprocess.Popen:
    def more_files():  # 2,000 streams: well past a default of 1,024 open files
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    with log.open("w") as out:
        server = subprocess.Popen(
            [
                str(VENV_BIN / "uvicorn"),
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--no-access-log",
                "--backlog",
                "4096",
                "--timeout-graceful-shutdown",
                "2",
                "--workers",
                str(workers),
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=more_files,
            start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return server
        except OSError:
            if server.poll() is not None:
                raise RuntimeError(f"uvicorn ended: {log.read_text()[-2000:]}") from None
            time.sleep(0.2)
    raise RuntimeError("uvicorn did not start within 60 s")


# --- the clients ------------------------------------------------------------------------------------
@dataclass
class Results:
    # A table's rolls are made one after the other (each waits for the one before it to answer), and
    # its feed sends each member the table's roll events in order: a member's k-th roll event is the
    # table's k-th roll that succeeded (a sheet roll's purpose is the sheet's, not a mark of ours).
    sent: dict[int, list[float]] = field(default_factory=dict)  # campaign -> send times, in order
    roller: dict[int, list[int]] = field(default_factory=dict)  # campaign -> who rolled, in order
    # (campaign, member, k, when) of every roll event a member read
    received: list[tuple[int, int, int, float]] = field(default_factory=list)
    request_times: list[float] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    connected: int = 0
    open_streams: int = 0
    stream_errors: list[str] = field(default_factory=list)
    tables: int = 0
    held_idle: int = 0
    held_after_idle: int = 0
    held_after_rolling: int = 0


async def listen(client, base: str, table: int, member: int, session: str, results: Results, stop):
    """One member's live feed: count the connection, time each roll line of the table's rolls."""
    url = f"{base}/campaigns/{table}/live/"
    buffer = ""
    try:
        async with client.stream("GET", url, headers={"Cookie": f"sessionid={session}"}) as response:
            if response.status_code != 200:
                results.stream_errors.append(f"{response.status_code} for {url}")
                return
            first = True
            seen = 0  # this member's roll events so far
            results.open_streams += 1
            try:
                async for chunk in response.aiter_text():
                    now = time.monotonic()
                    if first:  # the retry hint comes with the stream's first read: caught up
                        results.connected += 1
                        first = False
                    buffer += chunk
                    *messages, buffer = buffer.split("\n\n")
                    for message in messages:
                        if "event: roll" in message:
                            results.received.append((table, member, seen, now))
                            seen += 1
                    if stop.is_set():
                        return
            finally:
                results.open_streams -= 1
    except Exception as error:  # noqa: BLE001 - counted and printed, the run goes on
        if not stop.is_set():
            results.stream_errors.append(f"{type(error).__name__}: {error}"[:200])


async def table_rolls(client, base, index, table, results, start, seconds, every, rng, through):
    """This table's rolls: one every ``every`` seconds from its offset in the period, until
    ``seconds``; each waits for the one before it (see Results)."""
    n = 0
    offset = every * index / max(1, results.tables)
    campaign = table["campaign"]
    sent, rollers = results.sent.setdefault(campaign, []), results.roller.setdefault(campaign, [])
    while True:
        due = start + offset + n * every
        if due - start >= seconds:
            return
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        member = rng.randrange(1, len(table["members"]))
        roller = table["members"][member]
        began = time.monotonic()
        try:
            if through == "sheet":  # the character page's click-to-roll, as htmx posts it
                response = await client.post(
                    f"{base}/characters/{roller['agent']}/roll/",
                    data={"spec": roller["spec"], "csrfmiddlewaretoken": CSRF},
                    headers={
                        "Cookie": f"sessionid={roller['session']}; csrftoken={CSRF}",
                        "HX-Request": "true",
                        "Referer": f"{base}/characters/{roller['agent']}/",
                    },
                )
                made = response.status_code == 200 and b"roll-line" in response.content
            else:  # the plain dice API
                response = await client.post(
                    f"{base}/api/v1/campaigns/{campaign}/rolls/",
                    json={"kind": "d10", "count": 2, "purpose": f"bench-{index}-{n}"},
                    headers={"Authorization": f"Token {roller['token']}"},
                )
                made = response.status_code == 201
            results.request_times.append(time.monotonic() - began)
            if made:
                sent.append(began)
                rollers.append(member)
            else:
                results.failed_requests.append(f"{response.status_code}: {response.text[:120]}")
        except Exception as error:  # noqa: BLE001
            results.failed_requests.append(f"{type(error).__name__}: {error}"[:200])
        n += 1


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def drive(args, tables: list[dict], base: str, server_pid: int) -> tuple[Results, list[Phase]]:
    import httpx

    results = Results()
    results.tables = len(tables)
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    phases = []
    async with (
        httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(None)) as streams,
        httpx.AsyncClient(limits=httpx.Limits(max_connections=100), timeout=30) as rollers,
    ):
        listeners = []
        with Phase("connect", server_pid) as phase:
            for table in tables:
                for member_index, member in enumerate(table["members"]):
                    listeners.append(
                        asyncio.create_task(
                            listen(
                                streams,
                                base,
                                table["campaign"],
                                member_index,
                                member["session"],
                                results,
                                stop,
                            )
                        )
                    )
                if len(listeners) % 100 == 0:
                    await asyncio.sleep(0.05)  # a ramp, not 2,000 handshakes in one instant
            deadline = time.monotonic() + args.connect_timeout
            while results.connected + len(results.stream_errors) < len(listeners):
                if time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.1)
        phases.append(phase)
        held_idle = results.open_streams
        with Phase("idle", server_pid) as phase:
            await asyncio.sleep(args.idle_seconds)
        phases.append(phase)
        results.held_after_idle = results.open_streams
        rng = random.Random(32)
        with Phase("rolling", server_pid) as phase:
            start = time.monotonic() + 0.5
            await asyncio.gather(
                *(
                    table_rolls(
                        rollers,
                        base,
                        i,
                        table,
                        results,
                        start,
                        args.roll_seconds,
                        args.every,
                        rng,
                        args.through,
                    )
                    for i, table in enumerate(tables)
                )
            )
            await asyncio.sleep(args.drain_seconds)
        phases.append(phase)
        results.held_after_rolling = results.open_streams
        results.held_idle = held_idle
        stop.set()
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    return results, phases


def server_times(log: Path) -> list[tuple[float, float]]:
    """The roll requests from dossier's request log (JSON lines): (when, in seconds since the
    first, its duration in seconds)."""
    times = []
    for line in log.read_text(errors="replace").splitlines():
        if '"duration_ms"' not in line or ("/rolls/" not in line and "/roll/" not in line):
            continue
        try:
            entry = json.loads(line)
            when = datetime.strptime(entry["time"], "%Y-%m-%d %H:%M:%S,%f").timestamp()
        except (ValueError, KeyError):
            continue
        if entry.get("method") == "POST" and entry.get("path", "").endswith(("/rolls/", "/roll/")):
            times.append((when, entry["duration_ms"] / 1000))
    first = min((when for when, _ in times), default=0.0)
    return sorted((when - first, duration) for when, duration in times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=int(os.environ.get("LIVE_TABLES", "400")))
    parser.add_argument("--size", type=int, default=5, help="members per table (a GM and players)")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between a table's rolls")
    parser.add_argument(
        "--idle-seconds", type=float, default=float(os.environ.get("LIVE_IDLE_SECONDS", "20"))
    )
    parser.add_argument(
        "--roll-seconds", type=float, default=float(os.environ.get("LIVE_ROLL_SECONDS", "60"))
    )
    parser.add_argument("--drain-seconds", type=float, default=3.0)
    parser.add_argument("--connect-timeout", type=float, default=120.0)
    parser.add_argument("--redis", default="", help="LIVE_REDIS_URL for the server (default: none)")
    parser.add_argument(
        "--workers", type=int, default=1, help="uvicorn processes (more than one wants --redis)"
    )
    parser.add_argument(
        "--through",
        choices=("sheet", "api"),
        default="sheet",
        help="how a roll is made: the character page's click-to-roll (default) or the plain dice API",
    )
    parser.add_argument("--keep-log", default="", help="copy the server's log (JSON lines) to this file")
    args = parser.parse_args(argv if argv is not None else [])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="dossier-bench-live-") as tmp:
        var_dir = Path(tmp)
        env = environment(var_dir, args.redis)
        began = time.monotonic()
        tables = seed(env, args.tables, args.size)
        print(f"   seeded {args.tables} tables of {args.size} in {time.monotonic() - began:.1f} s")
        port = free_port()
        log = var_dir / "uvicorn.log"
        server = start_server(env, port, log, args.workers)
        try:
            results, phases = asyncio.run(drive(args, tables, f"http://127.0.0.1:{port}", server.pid))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        report(args, results, phases, server_times(log))
        if args.keep_log:
            shutil.copyfile(log, args.keep_log)
        errors = server_errors(log)
        if errors:
            print("   the server logged errors (first of each kind):")
            for message, count in errors:
                print(f"     {count} x {message}")


def server_errors(log: Path, limit: int = 5) -> list[tuple[str, int]]:
    """The server's ERROR lines by their message's first 160 characters, most frequent first."""
    counts: dict[str, int] = {}
    for line in log.read_text(errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("level") in ("ERROR", "CRITICAL"):
            text = str(entry.get("exc_info") or entry.get("message") or "")
            key = (text.strip().splitlines() or [""])[-1][:160]
            counts[key] = counts.get(key, 0) + 1
    return sorted(counts.items(), key=lambda item: -item[1])[:limit]


def report(args, results: Results, phases: list[Phase], timed: list[tuple[float, float]]) -> None:
    server = [duration for _, duration in timed]
    clients = args.tables * args.size
    # "every other client of its table": the roller's own copy is left out of the figures
    others: dict[tuple[int, int], list[float]] = {}
    for campaign, member, k, when in results.received:
        sent, rollers = results.sent.get(campaign, []), results.roller.get(campaign, [])
        if k < len(sent) and member != rollers[k]:
            others.setdefault((campaign, k), []).append(when - sent[k])
    latencies = [value for values in others.values() for value in values]
    rolls = sum(len(times) for times in results.sent.values())
    expected = rolls * (args.size - 1)
    print(
        f"   clients {clients} ({args.tables} tables of {args.size}); connected {results.connected}, "
        f"streams held: {results.held_idle} after connecting, {results.held_after_idle} after idle, "
        f"{results.held_after_rolling} after rolling; stream errors {len(results.stream_errors)}"
    )
    for error in results.stream_errors[:3]:
        print(f"     {error}")
    for phase in phases:
        print(phase.line())
    print(
        f"   rolls {rolls} through {args.through} ({rolls / args.roll_seconds:.1f}/s), failed "
        f"{len(results.failed_requests)}; lines received by the other members {len(latencies)} of "
        f"{expected} (missing {expected - len(latencies)})"
    )
    for error in results.failed_requests[:3]:
        print(f"     {error}")
    per_roll_worst = [max(values) for values in others.values() if values]
    slowest = max(latencies, default=float("nan"))
    print(
        f"   delivery (roll request sent -> line read): p50 {1000 * pct(latencies, 0.5):.0f} ms  "
        f"p95 {1000 * pct(latencies, 0.95):.0f} ms  max {1000 * slowest:.0f} ms; "
        f"per roll, the last member reached: p95 {1000 * pct(per_roll_worst, 0.95):.0f} ms"
    )
    print(
        f"   roll request server time (request log): p50 {1000 * pct(server, 0.5):.1f} ms  "
        f"p95 {1000 * pct(server, 0.95):.1f} ms  (n={len(server)}); as the client saw it: "
        f"p95 {1000 * pct(results.request_times, 0.95):.1f} ms"
    )
    windows: dict[int, list[float]] = {}
    for when, duration in timed:
        windows.setdefault(int(when // 10), []).append(duration)
    by_window = [
        f"{10 * w}s {1000 * pct(v, 0.5):.0f}/{1000 * pct(v, 0.95):.0f}" for w, v in sorted(windows.items())
    ]
    print("   the same by 10 s of the rolling phase, p50/p95 ms: " + "  ".join(by_window))
    idle = next((p for p in phases if p.name == "idle"), None)
    rolling = next((p for p in phases if p.name == "rolling"), None)
    if rolling and rolls:
        idle_rate = idle.server_cpu / idle.wall if idle else 0.0
        print(
            f"   server CPU per roll: {1000 * rolling.server_cpu / rolls:.1f} ms (the rolling phase's CPU "
            f"over its rolls), {1000 * (rolling.server_cpu - idle_rate * rolling.wall) / rolls:.1f} ms "
            "beyond what the idle clients cost"
        )
    if idle:
        print(
            f"   idle clients cost the server {100 * idle.server_cpu / idle.wall:.2f} % of one core "
            f"({1e6 * idle.server_cpu / idle.wall / max(1, results.held_idle):.1f} µs of CPU per "
            f"second per connection)"
        )
    if latencies:
        print(f"   (stdev of delivery {1000 * statistics.pstdev(latencies):.0f} ms)")


if __name__ == "__main__":
    main(sys.argv[1:])
