"""Render the campaign report (GM's and a player's copy) and an after-action report of a
50-mission campaign played through the services (bench/world.py seed_missions), and rasterise
every page at 60 dpi (pypdfium2: pdftoppm need not be installed) into this folder, to look at them.

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
    import pypdfium2

    for number, page in enumerate(pypdfium2.PdfDocument(str(pdf)), start=1):
        image = page.render(scale=60 / 72).to_pil().convert("RGB").quantize(colors=64)
        image.save(HERE / f"pdf-{name}-{number}.png", optimize=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
