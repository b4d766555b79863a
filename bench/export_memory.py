"""Peak memory of exporting one large campaign: the streaming export job against the whole document
built in memory (what every export did before issue 22); and of downloading the job's file through
Django's ASGI handler, as uvicorn serves it (issue 44, finding 11).

    .venv/bin/python bench/export_memory.py                   # 200,000 rolls on SQLite
    .venv/bin/python bench/export_memory.py --rolls 20000     # another size
    .venv/bin/python bench/export_memory.py --database-url postgres://postgres@127.0.0.1:5432/dossier_scale_mem
    .venv/bin/python bench/run_all.py export_memory           # as `make bench` runs it

The campaign is seeded by one process; each way of exporting then runs in a fresh process of its
own, which reports its peak resident memory (``ru_maxrss``: Django and the app loaded included)
and the wall time. "job" is archive.tasks.run_export (the file goes to the default storage, here
a temporary MEDIA_ROOT); "whole document" is json.dumps(services.export_campaign(...)). Figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


def seed(rolls: int) -> int:
    import random

    from django.contrib.auth import get_user_model

    from campaigns import services
    from campaigns.models import Roll

    gm = get_user_model().objects.create_user("memory-gm", password="memory-bench-password")
    campaign = services.create_campaign(gm, name="Memory campaign", system="timemaster")
    rng = random.Random(5)

    def rows():
        for i in range(rolls):
            faces = [rng.randint(1, 10) for _ in range(3)]
            yield Roll(
                campaign=campaign,
                roller=gm,
                kind="d10",
                count=3,
                faces=faces,
                kept=faces,
                total=sum(faces),
                purpose=f"roll {i}",
            )

    Roll.objects.bulk_create(rows(), batch_size=2000)
    return campaign.pk


def export(way: str, campaign_id: int) -> dict:
    from django.contrib.auth import get_user_model

    from archive import services
    from archive.models import CampaignExport
    from archive.tasks import run_export
    from campaigns.models import Campaign

    campaign = Campaign.objects.get(pk=campaign_id)
    gm = get_user_model().objects.get(username="memory-gm")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    if way in ("job", "asgi"):
        export = CampaignExport.objects.create(campaign=campaign, requested_by=gm, rolls_total=0)
        assert run_export(export.pk) == "done"
        size = CampaignExport.objects.get(pk=export.pk).size
        if way == "asgi":
            return download(gm, campaign, export.pk, size)
    else:
        size = len(json.dumps(services.export_campaign(campaign, gm), ensure_ascii=False, indent=1).encode())
    return {
        "way": way,
        "seconds": time.perf_counter() - started,
        "rss_before_mb": before / 1024,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "bytes": size,
    }


def download(gm, campaign, export_pk: int, size: int) -> dict:
    """The export file served through Django's ASGI handler (as uvicorn runs it), the body read and
    dropped: how much the download adds to the process's peak (issue 44, finding 11: a synchronous
    file iterator is read whole into memory by the handler before the first byte goes out)."""
    import asyncio

    from django.conf import settings
    from django.core.asgi import get_asgi_application
    from django.test import Client

    from tests.live.helpers import asgi_get

    browser = Client()
    browser.force_login(gm)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    path = f"/campaigns/{campaign.pk}/archive/exports/{export_pk}/download/"
    application = get_asgi_application()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    status, _, sent = asyncio.run(asgi_get(application, path, [(b"cookie", cookie.encode())], keep=False))
    assert status == 200 and sent == size, (status, sent)
    return {
        "way": "asgi",
        "seconds": time.perf_counter() - started,
        "rss_before_mb": before / 1024,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "bytes": size,
    }


def child(args: argparse.Namespace) -> None:
    from pages import setup_django

    os.environ["MEDIA_ROOT"] = str(Path(args.var_dir) / "media")
    setup_django(args.var_dir, debug=True, database_url=args.database_url)
    if args.child == "seed":
        print("RESULT " + json.dumps({"campaign": seed(args.rolls)}))
    else:
        print("RESULT " + json.dumps(export(args.child, args.campaign)))


def run(args: list[str]) -> dict:
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, cwd=ROOT)
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise SystemExit(done.stdout[-2000:] + done.stderr[-4000:])


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv or [])
    if args.child:
        child(args)
        return
    with tempfile.TemporaryDirectory(prefix="dossier-export-memory-") as var_dir:
        common = ["--var-dir", var_dir, "--rolls", str(args.rolls)]
        if args.database_url:
            common += ["--database-url", args.database_url]
        campaign = run(["--child", "seed", *common])["campaign"]
        print(f"   {args.rolls} rolls; peak RSS of a fresh process exporting them (Django loaded included)")
        labels = {
            "job": "export job (streamed)",
            "whole": "whole document in memory",
            "asgi": "download under ASGI",  # "before": after the job, before the download
        }
        for way, label in labels.items():
            figures = run(["--child", way, "--campaign", str(campaign), *common])
            print(
                f"   {label:<28} peak {figures['peak_mb']:6.0f} MB"
                f" (before export {figures['rss_before_mb']:4.0f} MB)  {figures['seconds']:5.1f} s"
                f"  {figures['bytes'] / 1e6:5.1f} MB written"
            )


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rolls", type=int, default=200_000)
    parser.add_argument("--database-url", default=None, help="default: a temporary SQLite file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--campaign", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--var-dir", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
