"""Render the campaign report (GM's and a player's copy) and an after-action report of a
50-mission campaign played through the services (bench/world.py seed_missions), and rasterise
every page at 60 dpi (poppler's pdftoppm, else pypdfium2) into this folder, to look at them.

    .venv/bin/python docs/screenshots/charts/make_pdfs.py [missions]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]


def main(count: int) -> None:
    for stale in HERE.glob("pdf-*.png"):  # a report with fewer pages than before leaves none behind
        stale.unlink()
    from pages import setup_django
    from world import seed_missions

    with tempfile.TemporaryDirectory(prefix="dossier-pdfs-") as var_dir:
        setup_django(var_dir, debug=True, database_url=None)
        from campaigns.models import Campaign, Mission
        from sheets import services
        from sheets.models import SheetRender
        from sheets.tasks import run_render

        ids = seed_missions(count=count)
        campaign = Campaign.objects.get(pk=ids["campaign"])
        mission = Mission.objects.get(pk=ids["mission"])
        for name, user, kind in (
            ("campaign-report-gm", ids["gm"], "campaign_report"),
            ("campaign-report-player", ids["player"], "campaign_report"),
            ("after-action-gm", ids["gm"], "after_action"),
            ("after-action-player", ids["player"], "after_action"),
        ):
            membership = campaign.memberships.get(user=user)
            render, _ = services.request_render(
                user, kind, campaign, membership, target=mission if kind == "after_action" else None
            )
            assert run_render(render.pk) == "done", render.error
            pdf = Path(SheetRender.objects.get(pk=render.pk).file.path)
            rasterise(pdf, name)
            print(name, render.snapshot["subject"])

        # the other systems' reports, with six finished pieces of play and with none (the browser
        # test's campaigns, tests/e2e/test_charts.py other_systems), the GM's copy
        from types import SimpleNamespace

        from django.contrib.auth import get_user_model

        from tests.e2e.test_charts import other_systems

        users = get_user_model().objects
        world = SimpleNamespace(
            users={"gm": users.get(pk=ids["gm"].pk), "player": users.get(pk=ids["player"].pk)}
        )
        for system, full, empty in other_systems(world):
            for name, campaign in ((system, full), (f"{system}-empty", empty)):
                membership = campaign.memberships.get(user=world.users["gm"])
                render, _ = services.request_render(
                    world.users["gm"], "campaign_report", campaign, membership
                )
                assert run_render(render.pk) == "done", render.error
                rasterise(Path(SheetRender.objects.get(pk=render.pk).file.path), f"campaign-report-{name}")
                print(name, campaign.name)


def rasterise(pdf: Path, name: str) -> None:
    """Every page at 60 dpi by poppler's pdftoppm (pypdfium2 where it is not installed),
    quantised to 64 colours to stay small."""
    import shutil
    import subprocess

    from PIL import Image

    with tempfile.TemporaryDirectory(prefix="dossier-pages-") as pages:
        if shutil.which("pdftoppm"):
            subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf), f"{pages}/page"], check=True)
            # pdftoppm numbers pages page-1.png or page-01.png (padded to the page count's width)
            rendered = sorted(Path(pages).glob("page-*.png"), key=lambda p: int(p.stem.split("-")[-1]))
            images = [Image.open(path) for path in rendered]
        else:
            import pypdfium2

            images = [page.render(scale=60 / 72).to_pil() for page in pypdfium2.PdfDocument(str(pdf))]
        for number, image in enumerate(images, start=1):
            image.convert("RGB").quantize(colors=64).save(HERE / f"pdf-{name}-{number}.png", optimize=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
