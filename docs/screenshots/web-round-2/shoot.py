"""Screenshots of five pages at 1280 px and 390 px (issue 21, web round 2).

    DEBUG=1 .venv/bin/python docs/screenshots/web-round-2/shoot.py after [port]

Makes a fresh SQLite database in var/, seeds the demo (plus one draft for the builder step),
serves it on 127.0.0.1:<port> (default 8700) and saves `<page>-<width>-<tag>.png` beside this
file: the first screen of each page only, so the files stay small. One more, builder-errors, is
the builder step sent back with its fields empty.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
WIDTHS = {1280: 800, 390: 844}


def main(tag: str, port: int) -> None:
    db = ROOT / "var" / f"shots-{tag}.sqlite3"
    db.unlink(missing_ok=True)
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{db}"}
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "manage.py", "seed_demo"], cwd=ROOT, env=env, check=True, capture_output=True)
    ids = subprocess.run(
        [python, "manage.py", "shell", "-c", IDS],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    campaign, character, run, draft = ids[-4:]
    pages = {
        "campaign": f"/campaigns/{campaign}/",
        "character-sheet": f"/characters/{character}/",
        "gm-console-ttk": f"/ttk/{run}/",
        "builder-step": f"/characters/{draft}/build/background/",
        "dice-log": f"/campaigns/{campaign}/dice/",
    }
    server = subprocess.Popen(
        [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=2)
                break
            except OSError:
                time.sleep(0.3)
        shoot(f"http://127.0.0.1:{port}", pages, tag)
    finally:
        server.terminate()
        server.wait()
        db.unlink(missing_ok=True)


IDS = """
from campaigns.models import Campaign
from characters.models import Character
from characters import services
from django.contrib.auth import get_user_model
tm = Campaign.objects.get(name__startswith="Demo: ", system="timemaster")
ttk = Campaign.objects.get(name__startswith="Demo: ", system="time_to_kill")
hero = Character.objects.filter(campaign=tm, owner__username="alice", status="active").first()
alice = get_user_model().objects.get(username="alice")
draft = services.create_draft(tm, alice, choices={"name": "Half Done"})
print(tm.pk, hero.pk, ttk.ttk_runs.first().pk, draft.pk)
"""


def shoot(base: str, pages: dict, tag: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for width, height in WIDTHS.items():
            context = browser.new_context(viewport={"width": width, "height": height}, base_url=base)
            page = context.new_page()
            page.goto("/accounts/login/")
            page.get_by_label("Username").fill("gm")
            page.get_by_label("Password").fill("dossier-gm")
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url("**/campaigns/")
            for name, path in pages.items():
                page.goto(path)
                page.screenshot(path=str(HERE / f"{name}-{width}-{tag}.png"))
            # the builder step sent with its fields empty: how the errors show (defect 4)
            page.goto(pages["builder-step"])
            page.get_by_label("Agent's name").fill("")
            page.get_by_role("button", name="Save and continue").click()
            page.wait_for_load_state()
            page.locator("form .field").first.scroll_into_view_if_needed()
            page.screenshot(path=str(HERE / f"builder-errors-{width}-{tag}.png"))
            context.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "after", int(sys.argv[2]) if len(sys.argv) > 2 else 8700)
