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
    import pypdfium2
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
            for number, page in enumerate(pypdfium2.PdfDocument(str(pdf)), start=1):
                image = page.render(scale=60 / 72).to_pil().convert("RGB").quantize(colors=64)
                image.save(HERE / f"pdf-{name}-{number}.png", optimize=True)
            print(name, render.snapshot["subject"])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
