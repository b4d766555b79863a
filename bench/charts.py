"""Charts of play: a chart's cost cold and cached, the campaign report PDF of a 50-mission campaign,
and the GM's audit pages of that campaign (CPU, wall and queries per request). Figures only.

    .venv/bin/python bench/charts.py            # as `make bench BENCH=charts` runs it
    .venv/bin/python bench/charts.py --missions 20 --repeat 10

The campaign is played through the services (bench/world.py seed_missions): four agents, fifty
missions with three to six mistakes each, corrections after closing, offences, all published but
the last. Production-like settings as bench/pages.py (DEBUG off, collected static files).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pages import setup_django
from timing import summary
from world import seed_missions

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _timed(fn, repeat: int) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    return wall, cpu


def _cpu(cpu: list[float]) -> str:
    return f"  CPU median {statistics.median(cpu) * 1000:7.2f} ms"


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv or [])
    with tempfile.TemporaryDirectory(prefix="dossier-bench-") as var_dir:
        setup_django(var_dir, debug=False, database_url=None)
        from django.core.cache import cache
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from campaigns import charts
        from campaigns.models import Campaign
        from sheets import services as sheet_services
        from sheets.rendering import SheetPage, render_pdf

        started = time.perf_counter()
        ids = seed_missions(count=args.missions)
        print(f"   seeded a campaign of {args.missions} missions in {time.perf_counter() - started:.1f} s")
        campaign = Campaign.objects.get(pk=ids["campaign"])

        # -- one chart: the data, the drawing cold, the drawing from the cache
        for who, user, is_gm in (("GM", ids["gm"], True), ("player", ids["player"], False)):
            audience = "gm" if is_gm else "player"
            wall, cpu = _timed(lambda u=user, g=is_gm: charts.campaign_charts(campaign, u, g), args.repeat)
            print(summary(f"campaign chart data ({who}, 3 charts)", wall) + _cpu(cpu))
            for chart in charts.campaign_charts(campaign, user, is_gm):
                wall, cpu = _timed(lambda c=chart: charts.draw(c), args.repeat)
                print(summary(f"draw cold: {chart.key} ({who})", wall) + _cpu(cpu))
                cache.delete(f"chart:{audience}:{chart.digest()}")
                charts.svg(chart, audience)
                wall, cpu = _timed(lambda c=chart, a=audience: charts.svg(c, a), args.repeat)
                print(summary(f"cached: {chart.key} ({who})", wall) + _cpu(cpu))

        # -- the campaign report PDF: the snapshot (charts from the cache) and the render
        gm_membership = campaign.memberships.get(user=ids["gm"])
        wall, cpu = _timed(
            lambda: sheet_services.plan("campaign_report", campaign, gm_membership, user=ids["gm"]),
            args.repeat,
        )
        print(summary("campaign report snapshot (GM)", wall) + _cpu(cpu))
        planned = sheet_services.plan("campaign_report", campaign, gm_membership, user=ids["gm"])

        class _Snapshot:
            snapshot = planned["snapshot"]

        pages = [
            SheetPage(s.sheet, s.campaign, s.character, s.revision, s.stamp_label)
            for s in sheet_services.page_sources(_Snapshot)  # type: ignore[arg-type]
        ]
        pdf = render_pdf(pages, title="report", author="bench")
        wall, cpu = _timed(
            lambda: render_pdf(pages, title="report", author="bench"), max(3, args.repeat // 4)
        )
        print(summary(f"campaign report PDF render ({pdf.pages} pages)", wall) + _cpu(cpu))

        # -- the GM's pages of the 50-mission campaign, and the player's report
        c, m = ids["campaign"], ids["mission"]
        targets = [
            ("GM: campaign audit", ids["gm"], f"/campaigns/{c}/missions/audit/"),
            ("GM: mission audit", ids["gm"], f"/campaigns/{c}/missions/{m}/audit/"),
            ("GM: campaign report", ids["gm"], f"/campaigns/{c}/report/"),
            ("player: campaign report", ids["player"], f"/campaigns/{c}/report/"),
            ("player: after-action record", ids["player"], f"/campaigns/{c}/missions/{m}/report/"),
        ]

        def p95(wall: list[float]) -> float:
            ms = sorted(w * 1000 for w in wall)
            return ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]

        warm: dict[str, float] = {}
        warm_cpu: dict[str, float] = {}
        for label, user, path in targets:
            client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
            client.force_login(user)
            for _ in range(3):
                assert client.get(path).status_code == 200, path
            with CaptureQueriesContext(connection) as captured:
                client.get(path)
            queries = len(captured.captured_queries)
            wall, cpu = _timed(lambda cl=client, p=path: cl.get(p), args.repeat)
            print(summary(f"{label} [{queries} queries]", wall) + _cpu(cpu))
            warm[label] = p95(wall)
            warm_cpu[label] = statistics.median(cpu) * 1000

        # -- the same pages cold: the cache emptied before each request (every picture drawn again,
        # as on the first view after a change if the drawing job has not run yet)
        cold: dict[str, float] = {}
        cold_cpu: dict[str, float] = {}
        for label, user, path in targets[:3]:
            client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
            client.force_login(user)

            wall, cpu = [], []
            for _ in range(args.repeat):
                cache.clear()  # not timed: only the request after it
                started, started_cpu = time.perf_counter(), time.process_time()
                assert client.get(path).status_code == 200, path
                cpu.append(time.process_time() - started_cpu)
                wall.append(time.perf_counter() - started)
            print(summary(f"{label}, cache empty", wall) + _cpu(cpu))
            cold[label] = p95(wall)
            cold_cpu[label] = statistics.median(cpu) * 1000

        # -- the job that draws every member's report after a mission closes (chart_warming.warm)
        from campaigns import chart_warming

        def job() -> None:
            cache.clear()
            chart_warming.warm(c)

        wall, cpu = _timed(job, max(3, args.repeat // 4))
        print(
            summary(f"drawing job: every member's report ({campaign.memberships.count()} members)", wall)
            + _cpu(cpu)
        )

        # -- the goal of issue 46 (100 ms p95 each, on a quiet machine): the three pages a GM reads
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        three = ("GM: mission audit", "GM: campaign audit", "GM: campaign report")
        print(
            f"   p95 at {args.missions} missions, cold / warm: "
            + ", ".join(f"{label[4:]} {cold[label]:.1f} / {warm[label]:.1f} ms" for label in three)
            + f" (goal 100 ms each; load average {load} on {os.cpu_count()} CPUs)"
        )
        print(
            "   CPU median, cold / warm: "
            + ", ".join(f"{label[4:]} {cold_cpu[label]:.1f} / {warm_cpu[label]:.1f} ms" for label in three)
            + " (what holds on a quiet machine, where wall is about CPU)"
        )


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--missions", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
