"""Screenshots of the pages issue 30 touched, at 1280 px and 390 px, before and after.

    DEBUG=1 .venv/bin/python docs/screenshots/first-hour/shoot.py after [port]

Makes a fresh SQLite database in var/, seeds the demo, adds what a group's first hour makes (a
TIMEMASTER draft with its dice rolled, Time to Kill and D6 drafts, a freshly finished character),
serves it on 127.0.0.1:<port> (default 8710) and saves `<page>-<width>-<tag>.png` beside this
file: the first screen of each page (390 x 844 on a phone), so what needs scrolling to reach shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
WIDTHS = {1280: 800, 390: 844}

SETUP = """
import json, random
from campaigns.models import Campaign, Mission
from characters.models import Character
from characters import services
from django.contrib.auth import get_user_model
User = get_user_model()
alice = User.objects.get(username="alice")
demo = {c.system: c for c in Campaign.objects.filter(name__startswith="Demo: ")}
tm, ttk, d6, tempo = demo["timemaster"], demo["time_to_kill"], demo["d6"], demo["tempo"]
hero = Character.objects.filter(campaign=tm, owner=alice, status="active").first()
tm_draft = services.create_draft(tm, alice, choices={"name": "Jonah Pike"})
ttk_draft = services.create_draft(ttk, alice, choices={"name": "Hana"})
d6_draft = services.create_draft(d6, alice, choices={"name": "Lou Marsh"})
from systems.timemaster.demo import choices as _timemaster
fresh = services.finalize(
    services.create_draft(tm, alice, choices=_timemaster("Fresh Agent", "alice")),
    is_gm=True,
    rng=random.Random(5),
)
mission = Mission.objects.get(campaign=tm, title="The Lost Dispatch")
if TAG == "after":  # what only the after shots show: a draft waiting for the GM, a refused close
    services.create_draft(tm, User.objects.get(username="bob"), choices=_timemaster("Jonah Pike", "bob"))
    from campaigns import missions as mission_services
    bare = mission_services.create_mission(
        tm,
        {"title": "The Empty Chart", "parallel": "T-0", "place": "Rome",
         "start_year": 44, "end_year": 44, "agents": [fresh]},
    )
    mission_services.start_mission(bare, User.objects.get(username="gm"))
    extra = {"bare": bare.pk}
else:
    extra = {}
# the renders a worker would have made by now for alice's finished agent (not the fresh one)
from sheets.models import SheetRender
from sheets.tasks import run_render
from sheets.prerender import run_prerender
run_prerender(hero.pk, hero.revision)
for render in SheetRender.objects.filter(character=hero, status="queued"):
    run_render(render.pk)
print(json.dumps({
    "tm": tm.pk, "ttk": ttk.pk, "d6": d6.pk, "tempo": tempo.pk, "hero": hero.pk,
    "tm_draft": tm_draft.pk, "ttk_draft": ttk_draft.pk, "d6_draft": d6_draft.pk, "fresh": fresh.pk,
    "mission": mission.pk,
    **extra,
    "run": ttk.ttk_runs.first().pk,
    "encounter": d6.d6_encounters.first().pk if hasattr(d6, "d6_encounters") else None,
    "conflict": tempo.tempo_conflicts.first().pk if hasattr(tempo, "tempo_conflicts") else None,
}))
"""


def pages(ids: dict) -> list[tuple[str, str, str]]:
    """(name, user, path): what each shot shows and as whom."""
    return [
        ("tm-campaign-gm", "gm", f"/campaigns/{ids['tm']}/"),
        ("ttk-campaign-alice", "alice", f"/campaigns/{ids['ttk']}/"),
        ("d6-campaign-alice", "alice", f"/campaigns/{ids['d6']}/"),
        ("tempo-campaign-alice", "alice", f"/campaigns/{ids['tempo']}/"),
        ("tm-settings-alice", "alice", f"/campaigns/{ids['tm']}/settings/"),
        ("d6-settings-alice", "alice", f"/campaigns/{ids['d6']}/settings/"),
        ("tm-builder-roll-alice", "alice", f"/characters/{ids['tm_draft']}/build/roll/"),
        ("ttk-builder-alice", "alice", f"/characters/{ids['ttk_draft']}/build/abilities/"),
        ("d6-builder-alice", "alice", f"/characters/{ids['d6_draft']}/build/identity/"),
        ("tm-character-fresh-alice", "alice", f"/characters/{ids['fresh']}/"),
        ("tm-character-alice", "alice", f"/characters/{ids['hero']}/"),
        ("tm-history-alice", "alice", f"/characters/{ids['hero']}/history/"),
        ("tm-sheets-alice", "alice", f"/campaigns/{ids['tm']}/sheets/"),
        ("tm-mission-gm", "gm", f"/campaigns/{ids['tm']}/missions/{ids['mission']}/"),
        ("d6-encounter-gm", "gm", f"/campaigns/{ids['d6']}/encounters/{ids['encounter']}/"),
        ("tempo-conflict-gm", "gm", f"/conflicts/{ids['conflict']}/"),
    ]


def actions(ids: dict) -> list[tuple[str, str, str, object]]:
    """(name, user, path, what to do first): the states a click leads to (after shots only)."""

    def roll(page):
        if page.get_by_role("button", name="Roll the dice").count():  # the narrow pass finds it rolled
            page.get_by_role("button", name="Roll the dice").click()
            page.wait_for_load_state()

    def close(page):
        if not page.get_by_role("button", name="Close mission").count():
            return
        page.locator("#id_result_0").check()
        page.get_by_role("button", name="Close mission").click()
        page.wait_for_load_state()
        page.locator("#close").scroll_into_view_if_needed()

    def act(page):
        if page.get_by_test_id("pending").count():
            page.evaluate("document.querySelector('[data-testid=pending]').scrollIntoView()")
            return
        page.get_by_role("button", name="Declare").click()
        page.get_by_label("Roll with").select_option(index=1)
        page.get_by_role("button", name="Act", exact=True).click()
        page.get_by_test_id("pending").wait_for()
        page.evaluate("document.querySelector('[data-testid=pending]').scrollIntoView()")

    def exchange(page):
        page.get_by_role("button", name="Roll both sides").click()
        page.get_by_test_id("latest").wait_for()
        page.wait_for_timeout(500)  # the swap's scroll (show:#latest:top) and settle

    return [
        ("tm-builder-rolled-alice", "alice", f"/characters/{ids['tm_draft']}/build/roll/", roll),
        ("tm-mission-close-error-gm", "gm", f"/campaigns/{ids['tm']}/missions/{ids.get('bare')}/", close),
        ("d6-encounter-result-gm", "gm", f"/campaigns/{ids['d6']}/encounters/{ids['encounter']}/", act),
        ("tempo-conflict-rolled-gm", "gm", f"/conflicts/{ids['conflict']}/", exchange),
        ("tm-settings-gm", "gm", f"/campaigns/{ids['tm']}/settings/", None),
    ]


PASSWORDS = {"gm": "dossier-gm", "alice": "dossier-alice", "bob": "dossier-bob"}


def main(tag: str, port: int) -> None:
    db = ROOT / "var" / f"shots30-{tag}.sqlite3"
    db.unlink(missing_ok=True)
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{db}",
        "CELERY_TASK_ALWAYS_EAGER": "1",
        # its own rate-limit counters: many logins in a row from 127.0.0.1 are the script's
        "CACHE_URL": "locmemcache://",
    }
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "manage.py", "seed_demo"], cwd=ROOT, env=env, check=True, capture_output=True)
    out = subprocess.run(
        [python, "manage.py", "shell", "-c", f"TAG = {tag!r}\n" + SETUP],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    ids = json.loads(out.strip().splitlines()[-1])
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
        shots = pages(ids) + (actions(ids) if tag == "after" else [])
        shoot(f"http://127.0.0.1:{port}", shots, tag, only=set(sys.argv[3:]))
    finally:
        server.terminate()
        server.wait()
        db.unlink(missing_ok=True)


def shoot(base: str, shots: list, tag: str, only: set) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for width, height in WIDTHS.items():
            contexts = {}
            for name, user, path, *first in shots:
                if only and name not in only:
                    continue
                if user not in contexts:
                    context = browser.new_context(viewport={"width": width, "height": height}, base_url=base)
                    page = context.new_page()
                    page.goto("/accounts/login/")
                    page.get_by_label("Username").fill(user)
                    page.get_by_label("Password").fill(PASSWORDS[user])
                    page.get_by_role("button", name="Log in").click()
                    page.wait_for_url("**/campaigns/")
                    contexts[user] = page
                page = contexts[user]
                page.goto(path)
                page.wait_for_load_state("networkidle")
                if first and first[0] is not None:
                    first[0](page)
                page.screenshot(path=str(HERE / f"{name}-{width}-{tag}.png"))
            for page in contexts.values():
                page.context.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "after", int(sys.argv[2]) if len(sys.argv) > 2 else 8710)
