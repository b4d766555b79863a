"""`make run` (scripts/run.sh) on a freshly seeded database: the last lines on the screen are the
demo logins and the address, and the renders the seed queued print nothing at INFO after them
(issue 30, finding 1)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _renders_settled(db: Path) -> bool:
    """Every render the seed's prerender jobs asked for is finished (the worker is idle)."""
    with sqlite3.connect(db) as connection:
        (busy,) = connection.execute(
            "select count(*) from sheets_sheetrender where status in ('queued', 'running')"
        ).fetchone()
        (done,) = connection.execute(
            "select count(*) from sheets_sheetrender where status = 'done'"
        ).fetchone()
    return busy == 0 and done > 0


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.5)
    return False


@pytest.mark.slow
@pytest.mark.xdist_group("make_run")
def test_run_ends_with_the_address_and_the_logins_and_renders_stay_quiet(tmp_path):
    db, broker, log = tmp_path / "run.sqlite3", tmp_path / "broker.sqlite3", tmp_path / "run.log"
    port = _free_port()
    env = {
        **os.environ,
        "DEBUG": "1",
        # `make run` as a user has it: the project's settings, not the suite's (with the toy system)
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{db}",
        "CELERY_BROKER_URL": f"sqla+sqlite:///{broker}",
        "PORT": str(port),
        "PYTHONUNBUFFERED": "1",  # a terminal is line-buffered; the log file must be too
    }
    for name in ("LOG_LEVEL", "JOB_LOG_LEVEL", "REQUEST_LOG_LEVEL", "PYTHONWARNINGS"):
        env.pop(name, None)
    python = str(ROOT / ".venv" / "bin" / "python")
    python = python if Path(python).exists() else sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "manage.py", "seed_demo"], cwd=ROOT, env=env, check=True, capture_output=True)
    with log.open("w") as out:
        run = subprocess.Popen(
            ["bash", "scripts/run.sh"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        assert _wait_for(lambda: "Dossier: http" in log.read_text(), 90), log.read_text()
        # the seed queued prerenders (debounced 2 s); wait until the worker made them all, then idle
        assert _wait_for(lambda: _renders_settled(db), 120), "the worker never finished the demo's renders"
        # ten page views (issue 44: the address and the logins stay within the last 15 lines)
        for path in ("/accounts/login/", "/", "/accounts/signup/", "/accounts/login/", "/") * 2:
            with contextlib.suppress(urllib.error.HTTPError):
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30).read()
        time.sleep(3)
        shown = log.read_text()
    finally:
        run.send_signal(signal.SIGTERM)  # run.sh stops both
        try:
            run.wait(60)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(run.pid, signal.SIGKILL)  # whatever did not stop in time
    lines = [line for line in shown.splitlines() if line.strip()]
    assert lines[-5:-1] == [
        "Demo logins (username / password):",
        "  gm     / dossier-gm     (Game master)",
        "  alice  / dossier-alice  (Player)",
        "  bob    / dossier-bob    (Player)",
    ], shown
    assert lines[-1].startswith(f"Dossier: http://127.0.0.1:{port}/ "), shown
    assert "weasyprint" not in shown and " INFO " not in shown, shown
    assert "superuser privileges" not in shown
