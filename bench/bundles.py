"""Party bundles (issue 34): joined at once from stored sheets, and cold in two processes.

(i) A 20-character TIMEMASTER party whose sheets are all rendered: the GM's party-bundle request,
through the API, joins the stored PDFs (sheets/assemble.py) and answers 200 with the bundle done.
Goal <= 150 ms. Each repeat deletes the bundle first, so every request joins again.
(c) The same 20 sheets cold: one document in this process (today's bundle) against
``render_in_chunks`` with two processes (a chunk of 10 each, joined), taken in alternation.
Goal: chunked <= 0.6x the single-process bundle. Wall times: the chunked render's CPU is spread
over two processes, so its CPU time here counts only this one. (c3) measures what running two
processes at once costs on this machine whatever they run (the same chunk alone, then twice at
once): on a shared VM the slower of two equal renders takes longer than one alone, and c2 waits
for its slower half. The load average is printed before
and after: the machine is shared, and wall time on 2 cores moves with it.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUNDLE_SIZE = 20
REPEAT = 7
COLD_REPEAT = 3


def cpu_with_children() -> float:
    """CPU seconds of this process and of its children that have ended (a chunk's process)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def median_ms(runs: list[float]) -> str:
    return f"median {statistics.median(runs) * 1000:7.1f} ms (least {min(runs) * 1000:7.1f}, n={len(runs)})"


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


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
    from characters.models import Character
    from characters.systems import get_system
    from sheets import rendering, storage, tasks
    from sheets.models import SheetRender
    from tests.sheets.conftest import BUILDERS

    print(f"   load average before: {load()} (2 cores, shared)")
    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        ALLOWED_HOSTS=["*"],
        SHEET_BUNDLE_PROCESSES=1,
    ):
        gm = get_user_model().objects.create_user("bench-gm", password="bench-password")
        campaign = campaign_services.create_campaign(gm, name="Bench", system="timemaster")
        for i in range(BUNDLE_SIZE):
            build = BUILDERS["timemaster"](name=f"Agent {i:02d}")
            Character.objects.create(
                campaign=campaign,
                owner=gm,
                system="timemaster",
                name=f"Agent {i:02d}",
                status="active",
                build=build,
                creation_build=build,
                revision=1,
            )
        client = Client()
        client.force_login(gm)
        url = f"/api/v1/campaigns/{campaign.pk}/sheets/"
        original_delay = tasks.render_sheet.delay
        tasks.render_sheet.delay = lambda render_id: None  # rendered below, in this process
        try:
            for character in Character.objects.filter(campaign=campaign):
                body = {"kind": "character", "character": character.pk, "paper": "letter"}
                created = client.post(url, body, content_type="application/json").json()
                assert tasks.run_render(created["id"]) == "done"
            runs, cpus = [], []
            for _ in range(REPEAT + 1):
                for old in SheetRender.objects.filter(kind="party_bundle"):
                    storage.delete(old.file.name)
                    old.delete()
                started, started_cpu = time.perf_counter(), time.process_time()
                response = client.post(url, {"kind": "party_bundle"}, content_type="application/json")
                runs.append(time.perf_counter() - started)
                cpus.append(time.process_time() - started_cpu)
                assert response.status_code == 200, response.content  # done at once: joined
            bundle = SheetRender.objects.get(kind="party_bundle")
        finally:
            tasks.render_sheet.delay = original_delay
    verdict = "met" if statistics.median(runs[1:]) <= 0.150 else "NOT met"
    cpu_verdict = "met" if statistics.median(cpus[1:]) <= 0.150 else "NOT met"
    print(
        f"   (i) instant {BUNDLE_SIZE}-character bundle request (join + store + row) {median_ms(runs[1:])}"
        f"   goal <= 150 ms: {verdict}   ({bundle.pages} pages, {bundle.size / 1e6:.2f} MB)"
    )
    print(f"       the same requests' CPU {median_ms(cpus[1:])}   <= 150 ms of CPU: {cpu_verdict}")

    pages = [
        rendering.SheetPage(
            get_system("timemaster").sheet(BUILDERS["timemaster"](name=f"Agent {i:02d}")),
            "Bench",
            character=f"Agent {i:02d}",
            revision=1,
        )
        for i in range(BUNDLE_SIZE)
    ]
    from sheets import assemble

    def cpu_of(fn):
        started = time.process_time()
        result = fn()
        return time.process_time() - started, result

    def critical_path() -> float:
        """CPU of the chunked render's longest path: the slower half, then the join (each half
        timed here, in turn; a forked process spends the same CPU on its half, measured 1.28 s
        against 1.22 s for 10 sheets)."""
        half = BUNDLE_SIZE // 2
        first_cpu, first = cpu_of(lambda: rendering.render_pdf(pages[:half], title="B", author="b"))
        second_cpu, second = cpu_of(lambda: rendering.render_pdf(pages[half:], title="B", author="b"))
        join_cpu, _ = cpu_of(lambda: assemble.join([first.pdf, second.pdf], title="B"))
        return max(first_cpu, second_cpu) + join_cpu

    single_cpu, path_cpu = [], []
    for _ in range(COLD_REPEAT):
        single_cpu.append(cpu_of(lambda: rendering.render_pdf(pages, title="B", author="b"))[0])
        path_cpu.append(critical_path())
    cpu_ratio = statistics.median(path_cpu) / statistics.median(single_cpu)
    print(f"   (c0) CPU: one document {median_ms(single_cpu)}   chunked critical path {median_ms(path_cpu)}")
    print(f"        critical path / one document {cpu_ratio:.2f}   (what two free cores would give)")
    single, chunked, single_cpu_all, chunked_cpu_all = [], [], [], []
    whole = lambda: rendering.render_pdf(pages, title="Bench", author="Dossier bench")  # noqa: E731
    split = lambda: rendering.render_in_chunks(pages, processes=2, title="Bench", author="Dossier bench")  # noqa: E731
    whole()
    split()  # warm both
    for _ in range(COLD_REPEAT):
        for fn, runs_of, cpu_of_all in ((whole, single, single_cpu_all), (split, chunked, chunked_cpu_all)):
            before = cpu_with_children()
            started = time.perf_counter()
            fn()
            runs_of.append(time.perf_counter() - started)
            cpu_of_all.append(cpu_with_children() - before)
    ratio = statistics.median(chunked) / statistics.median(single)
    print(f"   (c1) cold bundle, one document, one process      {median_ms(single)}")
    print(f"   (c2) cold bundle, two chunks in two processes    {median_ms(chunked)}")
    print(f"        c2/c1 {ratio:.2f}   goal <= 0.60: {'met' if ratio <= 0.6 else 'NOT met'}")
    work = statistics.median(chunked_cpu_all) / statistics.median(single_cpu_all)
    share = statistics.median(single_cpu_all) / statistics.median(single)
    print(f"        CPU of both processes: c1 {median_ms(single_cpu_all)}, c2 {median_ms(chunked_cpu_all)}")
    print(
        f"        c2 does {work:.2f}x c1's work; c1 got {share:.2f} of a core (1.00 on an idle machine):"
        " on two free cores the chunked wall time is the c0 line"
    )
    relative = statistics.median(cpus[1:]) / statistics.median(single_cpu_all)
    print(
        f"   (i/c1) the instant bundle's CPU / the one-document cold bundle's CPU {relative:.3f}"
        f"   (the 150 ms goal against the 1.73 s of the idle machine of 2026-11-27: <= 0.087):"
        f" {'met' if relative <= 0.087 else 'NOT met'}"
    )
    # (c3) What the machine charges for running two at once, whoever runs: the same 10-sheet chunk
    # rendered in one forked process alone, then in two forked processes at once (the wall time
    # until both are done). On two cores of one's own the two take as long as one.
    context = multiprocessing.get_context("fork")
    chunk = pages[: BUNDLE_SIZE // 2]

    def render_chunk() -> None:
        rendering.render_pdf(chunk, title="Bench", author="Dossier bench")

    def in_processes(count: int) -> float:
        started = time.perf_counter()
        processes = [context.Process(target=render_chunk) for _ in range(count)]
        for process in processes:
            process.start()
        for process in processes:
            process.join()
        return time.perf_counter() - started

    alone, together = [], []
    for _ in range(COLD_REPEAT):
        alone.append(in_processes(1))
        together.append(in_processes(2))
    pair = statistics.median(together) / statistics.median(alone)
    print(f"   (c3) one 10-sheet chunk in a process alone {median_ms(alone)};")
    print(f"        two at once {median_ms(together)}")
    print(
        f"        two at once / one alone {pair:.2f} (1.00 where each process has a core of its own);"
        f" c2/c1 without that cost {ratio / pair:.2f}"
    )
    print(f"   load average after: {load()}")


def main() -> None:
    """Run in a fresh process: its own Django setup and scratch database."""
    with tempfile.TemporaryDirectory(prefix="dossier-bench-bundles-") as var_dir:
        subprocess.run([sys.executable, __file__, "--run", var_dir], check=True)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--run":
        run(sys.argv[2])
    else:
        main()
