"""Page and API figures, in-process: CPU and wall time per request, and queries per request.

    .venv/bin/python bench/pages.py                       # every target, production-like settings
    .venv/bin/python bench/pages.py --debug               # the same with DEBUG on
    .venv/bin/python bench/pages.py --profile "api: roll log"   # cProfile of the targets named so
    .venv/bin/python bench/run_all.py pages               # as `make bench` runs it

Runs with Django's test client (no network) on a scratch SQLite database (or the PostgreSQL
database DATABASE_URL names: create it first), seeded by bench/world.py as bench/load.py seeds
its own: a campaign with five missions and 200 rolls, a finished TIMEMASTER agent whose sheet is
rendered once. The targets are bench/load.py's, and the dice page. CPU time (time.process_time)
is what a request costs a core, so it is the figure to compare before/after a change on a busy
machine; bench/load.py is the place for concurrent clients against gunicorn. By default it runs
as production does: DEBUG off, collected static files, requests marked as arriving through the
TLS proxy. Figures only.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from timing import summary
from world import seed, targets

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run as a script: the project's packages (config, tests ...)


def setup_django(var_dir: str, *, debug: bool, database_url: str | None) -> None:
    os.environ["DOSSIER_VAR_DIR"] = var_dir
    os.environ["DEBUG"] = "1" if debug else "0"
    if not debug:
        os.environ["SECRET_KEY"] = uuid.uuid4().hex * 2  # a throwaway key for this run only
    os.environ["DATABASE_URL"] = database_url or f"sqlite:///{var_dir}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if not debug:
        from django.test.utils import override_settings

        # The manifest production reads, without the compressed copies (minutes of CPU, unused here).
        plain = {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}
        with override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain}):
            call_command("collectstatic", "--noinput", verbosity=0)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv or [])
    with tempfile.TemporaryDirectory(prefix="dossier-bench-") as var_dir:
        setup_django(var_dir, debug=args.debug, database_url=args.database_url)
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        ids = seed()
        # As gunicorn sees a request behind the TLS-terminating proxy (settings.SECURE_PROXY_SSL_HEADER).
        client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
        client.force_login(ids["player"])
        mode = "DEBUG on" if args.debug else "DEBUG off"
        collecting: dict[str, list[float]] = {}

        def on_gc(phase: str, info: dict) -> None:  # CPU spent in the cyclic garbage collector
            if phase == "start":
                collecting["started"] = [time.process_time()]
            elif "started" in collecting:
                collecting.setdefault("spent", []).append(time.process_time() - collecting.pop("started")[0])

        gc.callbacks.append(on_gc)
        print(f"   {connection.vendor}, {mode}, {args.repeat} requests per target; CPU = process time")
        for label, method, path, body, expect, how in targets(ids["campaign"], ids["agent"], dice_page=True):
            extra = {"HTTP_AUTHORIZATION": f"Token {ids['token']}"} if how == "token" else {}
            if how == "token":
                extra["HTTP_ACCEPT"] = "application/json"

            def call(method=method, path=path, body=body, expect=expect, extra=extra):
                send = getattr(client, method.lower())
                response = (
                    send(path, body, content_type="application/json", **extra)
                    if body
                    else send(path, **extra)
                )
                assert response.status_code == expect, (path, response.status_code, response.content[:300])
                return response

            for _ in range(3):
                call()  # warm: imports on first use, template and URL caches
            with CaptureQueriesContext(connection) as captured:
                call()
            queries = len(captured.captured_queries)
            wall, cpu = [], []
            collecting.clear()
            for _ in range(args.repeat):
                started, started_cpu = time.perf_counter(), time.process_time()
                call()
                cpu.append(time.process_time() - started_cpu)
                wall.append(time.perf_counter() - started)
            print(
                summary(f"{label} [{queries} queries]", wall)
                + f"  CPU mean {statistics.fmean(cpu) * 1000:6.2f} ms"
                + f" (GC {sum(collecting.get('spent', [])) / args.repeat * 1000:5.2f})"
            )
            if args.profile and any(name in label for name in args.profile):
                profiler = cProfile.Profile()
                profiler.enable()
                for _ in range(args.repeat):
                    call()
                profiler.disable()
                out = io.StringIO()
                stats = pstats.Stats(profiler, stream=out).strip_dirs()
                stats.sort_stats("cumulative").print_stats(args.top)
                stats.sort_stats("tottime").print_stats(args.top)
                print(out.getvalue())


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database-url", default=os.environ.get("BENCH_DATABASE_URL"), help="default: SQLite"
    )
    parser.add_argument("--debug", action="store_true", help="run with DEBUG on")
    parser.add_argument("--repeat", type=int, default=100, help="requests per target (100)")
    parser.add_argument(
        "--profile", action="append", default=[], help="cProfile targets whose label has this"
    )
    parser.add_argument("--top", type=int, default=35, help="functions shown per profile (35)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
