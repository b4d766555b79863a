"""Load: 20 concurrent clients against gunicorn on loopback; throughput, p50/p95/p99 and errors.

    .venv/bin/python bench/load.py                      # SQLite in a temporary DOSSIER_VAR_DIR
    .venv/bin/python bench/run_all.py load              # the same, as `make bench` runs it
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dossier_bench .venv/bin/python bench/load.py
    LOAD_CLIENTS=20 LOAD_SECONDS=8 LOAD_REQUESTS=3000 .venv/bin/python bench/load.py

It migrates a database of its own (a temporary SQLite file, or the PostgreSQL database that
DATABASE_URL names: create it first), seeds a campaign with rolls and missions, starts
`gunicorn config.wsgi` with 2 workers on 127.0.0.1 and a free port, and drives each target in
turn with LOAD_CLIENTS threads, each target bounded by LOAD_REQUESTS requests and LOAD_SECONDS
seconds. Only loopback is ever contacted. gunicorn is stopped at the end, whatever happens.
Figures only: nothing here fails on a time.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"
CLIENTS = int(os.environ.get("LOAD_CLIENTS", "20"))
SECONDS = float(os.environ.get("LOAD_SECONDS", "8"))
REQUESTS = int(os.environ.get("LOAD_REQUESTS", "3000"))
WORKERS = int(os.environ.get("LOAD_WORKERS", "2"))

# Run by `manage.py shell -c` in the benchmark's environment; prints the ids and credentials.
SEED = """
import json, random
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from campaigns import services
from campaigns.models import Membership, Mission, Role

suffix = "{suffix}"
User = get_user_model()
gm = User.objects.create_user(f"load-gm-{{suffix}}", password="load-bench-password")
player = User.objects.create_user(f"load-player-{{suffix}}", password="load-bench-password")
campaign = services.create_campaign(gm, name=f"Load {{suffix}}", system="timemaster")
membership = Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
missions = [Mission.objects.create(campaign=campaign, title=f"Mission {{i}}") for i in range(5)]
rng = random.Random(9)
for i in range(200):
    services.record_roll(
        membership, kind="d10", count=3, purpose=f"roll {{i}}", mission=missions[i % 5], rng=rng
    )
client = Client()
client.force_login(player)
print(json.dumps({{
    "campaign": campaign.pk,
    "token": Token.objects.create(user=player).key,
    "session": client.cookies["sessionid"].value,
}}))
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
            conn.request("GET", "/accounts/login/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer within 30 s")


def drive(target: Target, port: int) -> None:
    """CLIENTS threads share a budget of REQUESTS requests and SECONDS seconds for this target."""
    lock = threading.Lock()
    budget = [REQUESTS]
    deadline = time.monotonic() + SECONDS

    def client() -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
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
        conn.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(CLIENTS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(SECONDS + 60)
    target.wall = time.perf_counter() - started


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
    )
    for sample in target.error_samples:
        line += f"\n      error: {sample}"
    return line


def main(database_url: str | None = None) -> None:
    """On SQLite unless given a database URL (bench/run_all.py runs it on SQLite; other benches
    there set DATABASE_URL in-process to their own scratch databases, so it is not read here)."""
    with tempfile.TemporaryDirectory(prefix="dossier-load-") as var_dir:
        env = {
            **os.environ,
            "DEBUG": "1",
            "DOSSIER_VAR_DIR": var_dir,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url or f"sqlite:///{var_dir}/load.sqlite3",
        }
        database = "PostgreSQL" if env["DATABASE_URL"].startswith("postgres") else "SQLite"
        python = str(VENV_BIN / "python")
        run_checked([python, "manage.py", "migrate", "--noinput", "-v", "0"], env)
        seed = SEED.format(suffix=uuid.uuid4().hex[:8])
        seeded = json.loads(
            run_checked([python, "manage.py", "shell", "-c", seed], env).strip().splitlines()[-1]
        )
        campaign = seeded["campaign"]
        token = {"Authorization": f"Token {seeded['token']}", "Accept": "application/json"}
        cookie = {"Cookie": f"sessionid={seeded['session']}"}
        roll_body = json.dumps({"kind": "d6", "count": 2, "purpose": "load"}).encode()
        targets = [
            Target("page: campaign", "GET", f"/campaigns/{campaign}/", 200, cookie),
            Target("api: campaign detail", "GET", f"/api/v1/campaigns/{campaign}/", 200, token),
            Target("api: roll log (200+ rolls)", "GET", f"/api/v1/campaigns/{campaign}/rolls/", 200, token),
            Target(
                "api: POST a roll",
                "POST",
                f"/api/v1/campaigns/{campaign}/rolls/",
                201,
                {**token, "Content-Type": "application/json"},
                roll_body,
            ),
        ]

        port = free_port()
        log = open(Path(var_dir) / "gunicorn.log", "w")  # noqa: SIM115 - closed in finally
        server = subprocess.Popen(
            [str(VENV_BIN / "gunicorn"), "config.wsgi", "-w", str(WORKERS), "-b", f"{HOST}:{port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until_up(port, server)
            print(
                f"   {database}, gunicorn {WORKERS} sync workers on {HOST}:{port}, {CLIENTS} clients,"
                f" each target at most {REQUESTS} requests or {SECONDS:g} s"
            )
            for target in targets:
                drive(target, port)
                print(report(target), flush=True)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()
        errors = sum(t.errors for t in targets)
        print(f"   total errors: {errors}")


if __name__ == "__main__":
    main(os.environ.get("DATABASE_URL"))
