"""Sheet rendering figures (issues 8 and 20): medians of 20 renders and worker memory over 300 renders.

Issue 20's goals, printed with each figure: every filled sheet <= 150 ms CPU (median of 20), a
20-character bundle <= 2.5 s wall, worker memory flat within 50 MB over 300 renders.

(a) a minimal one-page document, (b) each system's filled sheet, (c) a 20-character party bundle as
one document, (d) fetching an already-rendered sheet through the download view, (f) the archival
sheet (issue 34: PDF/A-3a, tagged, the character's JSON embedded) beside the plain PDF of before.
Then b/a, (c/20)/b, d/b, and the RSS of this process (a warm worker) over 300 renders. Runs in its
own process on a scratch SQLite database, so its memory figures are its own. Prints figures only.

The minimal document (a) is ``rendering.render_minimal``: one page through the same path as a sheet
(document template, sheet stylesheet and page setup, footer string, "page N of M"), a heading in the
bold face and a line in the regular face, so it carries the fixed cost of any sheet PDF (both fonts
subset and embedded) and nothing else.

The floor line measures what text alone costs: a page through the same path with as many lines of
plain text (three columns of paragraphs, no tables, no boxes) as the TIMEMASTER sheet has text
boxes. Whatever the layout, a sheet has to set at least that much text, so floor/a bounds from below
what b/a any sheet with that content can reach. Each figure is given as wall time and as this process's CPU
time: on a shared 2-core machine the CPU figure is the steadier of the two.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPEAT = 20
MEMORY_RENDERS = 300
BUNDLE_SIZE = 20
BUNDLE_REPEAT = 5  # a bundle takes seconds; 5 runs give a steady median


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Timing:
    """Median wall and CPU seconds of ``repeat`` calls."""

    def __init__(self, fn, repeat: int = REPEAT, warmup: int = 2):
        for _ in range(warmup):
            fn()
        wall, cpu = [], []
        for _ in range(repeat):
            started, started_cpu = time.perf_counter(), time.process_time()
            fn()
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        self.wall = statistics.median(wall)
        self.cpu = statistics.median(cpu)
        # The least CPU time of the runs: on a shared VM the median moves with the neighbours' load
        # (30-40 % between minutes), the least far less; both are printed.
        self.best = min(cpu)

    def __truediv__(self, other: Timing) -> str:
        return f"{self.wall / other.wall:5.2f} (cpu {self.cpu / other.cpu:5.2f})"

    def scaled(self, factor: float) -> Timing:
        copy = object.__new__(Timing)
        copy.wall, copy.cpu, copy.best = self.wall * factor, self.cpu * factor, self.best * factor
        return copy

    def __str__(self) -> str:
        return f"{self.wall * 1000:7.1f} ms (cpu {self.cpu * 1000:6.1f}, least {self.best * 1000:6.1f})"


def side_by_side(first, second, repeat: int = REPEAT) -> tuple[Timing, Timing]:
    """Two Timings taken in alternation (first, second, first, ...), so a change of the shared
    machine's load between minutes falls on both alike."""
    results: list[list[tuple[float, float]]] = [[], []]
    for fn in (first, second, first, second):  # warm both
        fn()
    for _ in range(repeat):
        for index, fn in enumerate((first, second)):
            started, started_cpu = time.perf_counter(), time.process_time()
            fn()
            results[index].append((time.perf_counter() - started, time.process_time() - started_cpu))
    timings = []
    for runs in results:
        timing = object.__new__(Timing)
        timing.wall = statistics.median(w for w, _ in runs)
        timing.cpu = statistics.median(c for _, c in runs)
        timing.best = min(c for _, c in runs)
        timings.append(timing)
    return timings[0], timings[1]


def run(var_dir: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.update(
        DOSSIER_VAR_DIR=var_dir,
        DEBUG=os.environ.get("DEBUG", "1"),
        DATABASE_URL=f"sqlite:///{var_dir}/bench.sqlite3",
        DJANGO_SETTINGS_MODULE="config.settings",
        MEDIA_ROOT=f"{var_dir}/media",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import override_settings

    from campaigns import services as campaign_services
    from campaigns.access import get_campaign_for_user
    from characters.models import Character
    from characters.systems import SheetData, get_system
    from sheets import rendering, services
    from sheets.tasks import run_render
    from tests.sheets import samples
    from tests.sheets.conftest import BUILDERS

    def sheet_of(system: str, name: str):
        return rendering.SheetPage(
            get_system(system).sheet(BUILDERS[system](name=name)), "Bench", character=name, revision=1
        )

    def demo_sheet(system: str):
        """The filled sheet as the gallery shows it (tests/sheets/samples.py, demo data)."""
        return samples.character_case(system, "demo").pages[0]

    def render(pages):
        return rendering.render_pdf(pages, title="Bench", author="Dossier bench")

    # The interpreter's build moves every figure: the same renders cost 5-10 % less on Debian's
    # /usr/bin/python3.11 than on a pyenv build of 3.11.7 (docs/performance.md, 2026-11-26).
    print(
        f"   interpreter: {sys.executable} (Python {platform.python_version()}, {platform.python_build()[1]})"
    )
    print("   (a) = one page, sheet stylesheet and footer, a bold heading and a line of text (fonts subset)")
    minimal = Timing(rendering.render_minimal)
    print(f"   (a) minimal one-page document          median {minimal}")
    filled = {}
    for system in ("timemaster", "time_to_kill", "tempo", "d6"):
        page = demo_sheet(system)
        filled[system] = Timing(lambda page=page: render([page]))
        verdict = "met" if filled[system].cpu <= 0.150 else "NOT met"
        print(
            f"   (b) {system + ' sheet':<34} median {filled[system]}   b/a {filled[system] / minimal}"
            f"   goal cpu <= 150 ms: {verdict}"
        )
    # (f) Issue 34: the archival sheet (PDF/A-3a, tagged, the character document embedded) against
    # the sheet as it was before (a plain PDF, no tags, nothing embedded), in alternation.
    from sheets import archival

    archival_page = demo_sheet("timemaster")
    document = archival.encode(
        {
            "format": "dossier.character",
            "format_version": 3,
            "name": "Harry Adams",
            "build": BUILDERS["timemaster"](name="Harry Adams"),
            "creation_build": BUILDERS["timemaster"](name="Harry Adams"),
            "ledger": [
                {"kind": "sp_awarded", "payload": {"type": "bonus", "session": i, "amount": 10}}
                for i in range(40)
            ],
        }
    )
    before, archival_sheet = side_by_side(
        lambda: rendering.render_pdf([archival_page], title="Bench", author="Dossier bench", archival=False),
        lambda: rendering.render_pdf(
            [archival_page],
            title="Bench",
            author="Dossier bench",
            attachments=[("harry-adams-r41.json", document)],
        ),
    )
    verdict = "met" if archival_sheet.cpu <= 1.15 * before.cpu else "NOT met"
    print(f"   (f) timemaster sheet, plain PDF as before    median {before}")
    print(
        f"   (f) the same, PDF/A-3a tagged + {len(document) // 1024} kB JSON  median {archival_sheet}"
        f"   f/f {archival_sheet / before}   goal cpu <= 1.15x: {verdict}"
    )
    fate_page = samples.fate_record_case("demo").pages[0]
    fate = Timing(lambda: render([fate_page]))
    verdict = "met" if fate.cpu <= 0.150 else "NOT met"
    print(f"   (b) {'Fate Record Sheet (a run)':<34} median {fate}   goal cpu <= 150 ms: {verdict}")
    # The floor: the TIMEMASTER sheet's number of text boxes, as plain lines and nothing else.
    text_boxes = rendering.count_text_boxes([sheet_of("timemaster", "Bench Agent")])
    per_column = -(-text_boxes // 3)
    columns = [
        "\n".join(
            f"Line {i + 1} of plain text"
            for i in range(c * per_column, min(text_boxes, (c + 1) * per_column))
        )
        for c in range(3)
    ]
    floor_sheet = SheetData(
        system="", template="sheets/minimal.html", title="Text floor", fields={"columns": columns}
    )
    floor_page = rendering.SheetPage(floor_sheet, "Bench", character="Text floor", revision=1)
    floor = Timing(lambda: render([floor_page]))
    print(
        f"   (floor) {text_boxes} lines of plain text, nothing else (the TIMEMASTER sheet's text boxes)"
        f"  median {floor}   floor/a {floor / minimal}"
    )
    bundle_pages = [sheet_of("timemaster", f"Agent {i:02d}") for i in range(BUNDLE_SIZE)]
    bundle = Timing(lambda: render(bundle_pages), repeat=BUNDLE_REPEAT, warmup=1)
    per_character = bundle.scaled(1 / BUNDLE_SIZE)
    verdict = "met" if bundle.wall <= 2.5 else "NOT met"
    print(
        f"   (c) {BUNDLE_SIZE}-character party bundle (median of {BUNDLE_REPEAT}) {bundle}"
        f"   goal wall <= 2.5 s: {verdict}"
    )
    print(
        f"       per character {per_character}   (c/{BUNDLE_SIZE})/b {per_character / filled['timemaster']}"
    )

    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"], ALLOWED_HOSTS=["*"]
    ):
        users = get_user_model().objects
        gm = users.create_user("bench-gm", password="bench-password")
        campaign = campaign_services.create_campaign(gm, name="Bench", system="timemaster")
        build = BUILDERS["timemaster"](name="Harry Adams")
        character = Character.objects.create(
            campaign=campaign,
            owner=gm,
            system="timemaster",
            name="Harry Adams",
            status="active",
            build=build,
            creation_build=build,
            revision=1,
        )
        _, membership = get_campaign_for_user(gm, campaign.pk)
        sheet, _ = services.request_render(gm, "character", campaign, membership, character)
        run_render(sheet.pk)
        client = Client()
        client.force_login(gm)

        def fetch():
            response = client.get(f"/api/v1/sheets/{sheet.pk}/download/")
            assert response.status_code == 200
            b"".join(response.streaming_content)

        download = Timing(fetch)
        clicks = edit_then_download(client, campaign, character, gm)
    print(
        f"   (d) repeat download of a stored PDF     median {download}"
        f"   d/b {download / filled['timemaster']}"
    )
    clicks.sort()
    p95 = clicks[max(0, round(0.95 * len(clicks)) - 1)]
    verdict = "met" if p95 <= 0.100 else "NOT met"
    print(
        f"   (e) edit, background render, then click print + download ({len(clicks)} edits)"
        f"   p50 {statistics.median(clicks) * 1000:.1f} ms  p95 {p95 * 1000:.1f} ms"
        f"   goal p95 <= 100 ms: {verdict}"
    )

    page = sheet_of("timemaster", "Memory Agent")
    render([page])
    start = rss_mb()
    marks = []
    for index in range(1, MEMORY_RENDERS + 1):
        render([page])
        if index % 100 == 0:
            marks.append(f"{index}: {rss_mb():.1f} MB")
    end = rss_mb()
    verdict = "met" if abs(end - start) <= 50 else "NOT met"
    print(
        f"   worker RSS over {MEMORY_RENDERS} renders: start {start:.1f} MB, {', '.join(marks)}"
        f"   growth {end - start:+.1f} MB   goal within 50 MB: {verdict}"
    )


def edit_then_download(client, campaign, character, user, edits: int = REPEAT) -> list[float]:
    """(e): edit the character (a ledger entry: a new revision), let the background render do its
    work as a worker would (sheets/prerender.py, not timed), then time the click: ask for the sheet
    through the API and download the PDF. Returns the wall seconds of each click."""
    from characters import services as character_services
    from sheets import prerender, tasks

    jobs, renders = [], []
    original_schedule, original_delay = prerender.schedule, tasks.render_sheet.delay
    prerender.schedule = lambda character_id, revision: jobs.append((character_id, revision))
    tasks.render_sheet.delay = renders.append
    clicks = []
    try:
        for session in range(1, edits + 1):
            award = {"kind": "sp_awarded", "type": "bonus", "session": session, "amount": 10}
            character_services.append_entry(character, award, user)
            while jobs:  # the worker: the debounced job, then the renders it asked for
                prerender.run_prerender(*jobs.pop(0))
            while renders:
                tasks.run_render(renders.pop(0))
            started = time.perf_counter()
            response = client.post(
                f"/api/v1/campaigns/{campaign.pk}/sheets/",
                {"kind": "character", "character": character.pk, "paper": "letter"},
                content_type="application/json",
            )
            assert response.status_code == 200, response.content  # 200: already rendered
            pdf = client.get(response.json()["download_url"])
            assert pdf.status_code == 200
            b"".join(pdf.streaming_content)
            clicks.append(time.perf_counter() - started)
    finally:
        prerender.schedule, tasks.render_sheet.delay = original_schedule, original_delay
    return clicks


def main() -> None:
    """Run in a fresh process: its own Django setup, scratch database and memory figures."""
    with tempfile.TemporaryDirectory(prefix="dossier-bench-sheets-") as var_dir:
        subprocess.run([sys.executable, __file__, "--run", var_dir], check=True)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--run":
        run(sys.argv[2])
    else:
        main()
