"""Load: 20 concurrent clients against gunicorn on loopback; throughput, p50/p95/p99 and errors.

    .venv/bin/python bench/load.py --help
    .venv/bin/python bench/load.py                      # SQLite in a temporary DOSSIER_VAR_DIR
    .venv/bin/python bench/run_all.py load              # SQLite, then PostgreSQL if it answers
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dossier_bench .venv/bin/python bench/load.py
    LOAD_CLIENTS=20 LOAD_SECONDS=8 LOAD_REQUESTS=3000 .venv/bin/python bench/load.py
    .venv/bin/python bench/load.py --think 1 --paced-seconds 30   # the paced run's think time
    .venv/bin/python bench/load.py --workers 4 --threads 2   # gunicorn's gthread worker class

It migrates a database of its own (a temporary SQLite file, or the PostgreSQL database that
DATABASE_URL names: create it first), seeds a campaign with rolls, missions and a finished
TIMEMASTER agent whose character sheet is rendered once (so the sheet request measured is the
repeat path that finds the finished render), prints the SQL queries each target runs, starts
`gunicorn config.wsgi` on 127.0.0.1 and a free port, and drives each target in turn with
LOAD_CLIENTS client threads, each on its own keep-alive connection. Only loopback is ever
contacted. gunicorn is stopped at the end, whatever happens.

Two runs per target, because "20 concurrent clients" can mean two different things:

- **paced** (the latency figures): 20 clients that each wait a think time between their requests
  (uniformly 0.5x-1.5x of ``--think``, 1 s by default, the first request after a random part of
  it so the clients do not move in step), as load tools model users. The server answers while
  other clients' requests are in flight, so the percentiles are what a user waits under that load.
- **saturation** (the capacity figure): the same 20 clients with no think time, each sending its
  next request the moment the last one is answered. The machine is then always full, and by
  Little's law a request's latency is clients / throughput whatever the server does: on 2 cores
  shared by gunicorn, the database and this generator, 20 / 400 req/s = 50 ms. Those percentiles
  measure queueing; the req/s is the figure to read.

Each line also gives the CPU gunicorn's processes spent per request (from /proc) and this
generator's own CPU per request: on a shared machine latencies depend on what else runs, the
CPU figures much less. In the paced run gunicorn's idle work (worker heartbeats) and a colder CPU
are spread over fewer requests, so its server CPU per request reads higher than at saturation.
Figures only: nothing here fails on a time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import world

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"
CLIENTS = int(os.environ.get("LOAD_CLIENTS", "20"))
SECONDS = float(os.environ.get("LOAD_SECONDS", "8"))
REQUESTS = int(os.environ.get("LOAD_REQUESTS", "3000"))
WORKERS = int(os.environ.get("LOAD_WORKERS", "2"))
THREADS = int(os.environ.get("LOAD_THREADS", "1"))  # >1 runs gunicorn's gthread worker class
THINK = float(os.environ.get("LOAD_THINK", "1.0"))  # the paced run's mean think time, seconds
PACED_SECONDS = float(os.environ.get("LOAD_PACED_SECONDS", "30"))  # ~600 requests per target

# Run by `manage.py shell -c` in the benchmark's environment (cwd: the project): seeds bench/world.py's
# campaign, counts each target's SQL queries, and prints the ids and credentials as JSON.
SEED = """
import json, sys
sys.path.insert(0, "bench")
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from world import seed, targets

ids = seed("load")
client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")  # as gunicorn sees it
client.force_login(ids["player"])
queries = {}
for label, method, path, body, _expect, auth in targets(ids["campaign"], ids["agent"]):
    call = getattr(client, method.lower())
    extra = {"HTTP_AUTHORIZATION": f"Token {ids['token']}"} if auth == "token" else {}
    call(path, body, content_type="application/json", **extra) if body else call(path, **extra)  # warm
    with CaptureQueriesContext(connection) as captured:
        response = call(path, body, content_type="application/json", **extra) if body else call(path, **extra)
    queries[label] = [response.status_code, len(captured)]
print(json.dumps({
    "campaign": ids["campaign"],
    "agent": ids["agent"],
    "token": ids["token"],
    "session": client.cookies["sessionid"].value,
    "queries": queries,
}))
"""


@dataclass
class Target:
    label: str
    method: str
    path: str
    expect: int
    headers: dict[str, str]
    body: bytes | None = None
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    wall: float = 0.0
    server_cpu: float = 0.0  # seconds of CPU gunicorn spent while this target ran
    client_cpu: float = 0.0  # seconds of CPU this load generator spent driving it


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def run_checked(args: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:3])} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    return done.stdout


def wait_until_up(port: int, server: subprocess.Popen, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with {server.returncode} before serving")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/accounts/login/", headers={"X-Forwarded-Proto": "https"})
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer within 30 s")


def warm_up(target: Target, port: int) -> None:
    """A few untimed requests per worker first: each gunicorn worker pays its one-time costs
    (imports on first use, opening its database connection) before the clock starts."""
    untimed = Target(target.label, target.method, target.path, target.expect, target.headers, target.body)
    drive(untimed, port, budget_requests=max(4 * WORKERS * max(THREADS, 1), CLIENTS), seconds=10.0)


def drive(
    target: Target,
    port: int,
    budget_requests: int | None = None,
    seconds: float | None = None,
    think: float = 0.0,
) -> None:
    """CLIENTS threads share a budget of REQUESTS requests and SECONDS seconds for this target.

    With ``think`` > 0 each client pauses 0.5x-1.5x ``think`` seconds after every answer (and a
    random part of it before its first request); with 0 it sends the next request at once."""
    lock = threading.Lock()
    budget = [REQUESTS if budget_requests is None else budget_requests]
    seconds = SECONDS if seconds is None else seconds
    deadline = time.monotonic() + seconds

    def pause(rng: random.Random, low: float, high: float) -> None:
        if think > 0:
            time.sleep(min(rng.uniform(low, high) * think, max(0.0, deadline - time.monotonic())))

    def client(seed: int) -> None:
        rng = random.Random(seed)
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        pause(rng, 0.0, 1.0)
        while time.monotonic() < deadline:
            with lock:
                if budget[0] <= 0:
                    break
                budget[0] -= 1
            started = time.perf_counter()
            try:
                conn.request(target.method, target.path, body=target.body, headers=target.headers)
                response = conn.getresponse()
                payload = response.read()
                ok = response.status == target.expect
                problem = "" if ok else f"{response.status}: {payload[:200]!r}"
            except (OSError, http.client.HTTPException) as error:
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                ok, problem = False, f"{type(error).__name__}: {error}"
            elapsed = time.perf_counter() - started
            with lock:
                if ok:
                    target.latencies.append(elapsed)
                else:
                    target.errors += 1
                    if len(target.error_samples) < 3:
                        target.error_samples.append(problem)
            pause(rng, 0.5, 1.5)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(CLIENTS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    target.wall = time.perf_counter() - started


def server_cpu_seconds(master: int) -> float:
    """CPU (user + system) gunicorn's master and workers have used so far, from /proc (Linux): the
    server's own cost per request, whatever else the machine is running."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process that ended meanwhile
        pid, ppid = int(entry.name), int(fields[1])
        if pid == master or ppid == master:
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def report(target: Target) -> str:
    ms = sorted(s * 1000 for s in target.latencies)
    done = len(ms) + target.errors

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(round(p / 100 * (len(ms) - 1))))] if ms else float("nan")

    rate = done / target.wall if target.wall else 0.0
    mean = statistics.fmean(ms) if ms else 0.0
    line = (
        f"   {target.label:<34} n={done:<5} {rate:7.0f} req/s  mean {mean:6.1f} ms"
        f"  p50 {pct(50):6.1f}  p95 {pct(95):6.1f}  p99 {pct(99):6.1f}  errors {target.errors}"
        f"  server CPU {target.server_cpu * 1000 / done if done else 0.0:5.1f} ms/req"
        f"  client CPU {target.client_cpu * 1000 / done if done else 0.0:4.1f}"
    )
    for sample in target.error_samples:
        line += f"\n      error: {sample}"
    return line


def main(database_url: str | None = None, debug: bool = False) -> None:
    """On the database given, or else on SQLite and then on a scratch PostgreSQL database when the
    server at POSTGRES_ADMIN_URL answers (bench/run_all.py calls it so; other benches there set
    DATABASE_URL in-process to their own scratch databases, so it is not read here)."""
    if database_url:
        run_on(database_url, debug)
        return
    run_on(None, debug)
    with scratch_postgres() as url:
        if url:
            run_on(url, debug)


POSTGRES_ADMIN_URL = os.environ.get("LOAD_POSTGRES_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")


@contextmanager
def scratch_postgres():
    """A throwaway PostgreSQL database for one run, dropped afterwards; None if there is no server."""
    try:
        import psycopg

        admin = psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=3)
    except Exception as error:  # no driver or no server: SQLite figures only
        print(f"   PostgreSQL: skipped ({type(error).__name__}: {str(error).strip()[:120]})")
        yield None
        return
    name = f"dossier_load_{uuid.uuid4().hex[:8]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def run_on(database_url: str | None, debug: bool) -> None:
    """One database: migrate, seed, start gunicorn, drive every target paced and at saturation.

    By default the server runs as in production (DEBUG off, collected static files, requests
    marked as arriving through a TLS proxy); ``debug`` runs it with DEBUG on instead."""
    with tempfile.TemporaryDirectory(prefix="dossier-load-") as var_dir:
        env = {
            **os.environ,
            "DEBUG": "1" if debug else "0",
            "DOSSIER_VAR_DIR": var_dir,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url or f"sqlite:///{var_dir}/load.sqlite3",
        }
        if not debug:
            env["SECRET_KEY"] = uuid.uuid4().hex * 2  # a throwaway key for this run only
        database = "PostgreSQL" if env["DATABASE_URL"].startswith("postgres") else "SQLite"
        python = str(VENV_BIN / "python")
        run_checked([python, "manage.py", "migrate", "--noinput", "-v", "0"], env)
        if not debug:
            run_checked([python, "manage.py", "collectstatic", "--noinput", "-v", "0"], env)
        seeded = json.loads(
            run_checked([python, "manage.py", "shell", "-c", SEED], env).strip().splitlines()[-1]
        )
        # As behind the TLS-terminating proxy production has (settings.SECURE_PROXY_SSL_HEADER).
        proxy = {} if debug else {"X-Forwarded-Proto": "https"}
        auth = {
            "token": {"Authorization": f"Token {seeded['token']}", "Accept": "application/json", **proxy},
            "cookie": {"Cookie": f"sessionid={seeded['session']}", **proxy},
        }
        targets = []
        for label, method, path, body, expect, how in world.targets(seeded["campaign"], seeded["agent"]):
            headers = dict(auth[how])
            if body is not None:
                headers["Content-Type"] = "application/json"
            targets.append(Target(label, method, path, expect, headers, body.encode() if body else None))

        errors = 0
        port = free_port()
        log = open(Path(var_dir) / "gunicorn.log", "w")  # noqa: SIM115 - closed in finally
        command = [str(VENV_BIN / "gunicorn"), "config.wsgi", "-w", str(WORKERS), "-b", f"{HOST}:{port}"]
        if THREADS > 1:
            command += ["-k", "gthread", "--threads", str(THREADS)]
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until_up(port, server)
            kind = f"gthread workers x {THREADS} threads" if THREADS > 1 else "sync workers"
            mode = "DEBUG on" if debug else "DEBUG off"
            print(f"   {database}, {mode}, gunicorn {WORKERS} {kind} on {HOST}:{port}, {CLIENTS} clients")
            queries = ", ".join(f"{label} {n} ({code})" for label, (code, n) in seeded["queries"].items())
            print(f"   SQL queries per request: {queries}")
            runs = [(THINK, PACED_SECONDS)] if THINK > 0 else []
            runs.append((0.0, SECONDS))
            for target in targets:
                warm_up(target, port)
            for think, seconds in runs:
                if think:
                    print(
                        f"   paced: each client thinks {0.5 * think:g}-{1.5 * think:g} s between requests;"
                        f" {seconds:g} s per target (latency under load)"
                    )
                else:
                    print(
                        f"   saturation: no think time; at most {REQUESTS} requests or {seconds:g} s per"
                        f" target (capacity: read req/s; latency = {CLIENTS} / throughput)"
                    )
                for spec in targets:
                    target = Target(spec.label, spec.method, spec.path, spec.expect, spec.headers, spec.body)
                    cpu_before, client_before = server_cpu_seconds(server.pid), time.process_time()
                    drive(target, port, seconds=seconds, think=think)
                    target.server_cpu = server_cpu_seconds(server.pid) - cpu_before
                    target.client_cpu = time.process_time() - client_before
                    errors += target.errors
                    print(report(target), flush=True)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()
        print(f"   total errors: {errors}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Environment: DATABASE_URL, LOAD_CLIENTS, LOAD_SECONDS, LOAD_REQUESTS, LOAD_WORKERS, "
        "LOAD_THREADS, LOAD_THINK, LOAD_PACED_SECONDS (the options override them).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"), help="default: SQLite")
    parser.add_argument("--clients", type=int, default=CLIENTS, help=f"concurrent clients ({CLIENTS})")
    parser.add_argument("--seconds", type=float, default=SECONDS, help=f"time per target ({SECONDS:g})")
    parser.add_argument("--requests", type=int, default=REQUESTS, help=f"requests per target ({REQUESTS})")
    parser.add_argument("--workers", type=int, default=WORKERS, help=f"gunicorn workers ({WORKERS})")
    parser.add_argument("--threads", type=int, default=THREADS, help=f"threads per worker ({THREADS})")
    parser.add_argument(
        "--think", type=float, default=THINK, help=f"paced run's mean think time, s; 0 skips it ({THINK:g})"
    )
    parser.add_argument(
        "--paced-seconds", type=float, default=PACED_SECONDS, help=f"paced run per target ({PACED_SECONDS:g})"
    )
    parser.add_argument("--debug", action="store_true", help="run the server with DEBUG on")
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    CLIENTS, SECONDS, REQUESTS = args.clients, args.seconds, args.requests
    WORKERS, THREADS = args.workers, args.threads
    THINK, PACED_SECONDS = args.think, args.paced_seconds
    main(args.database_url, debug=args.debug)
