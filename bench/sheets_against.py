"""The sheets bench of this tree and of an earlier commit, run at the same time, one per core.

    .venv/bin/python bench/sheets_against.py e57916b      # the plain-styled sheets of 2026-11-23
    .venv/bin/python bench/sheets_against.py --python .venv-bench/bin/python   # this tree, two interpreters

Issue 20 set its render goals as CPU milliseconds measured on the machine of the day ("every filled
sheet <= 150 ms; today 107-154 ms with plain styling: the new fonts and ornaments must not cost
more"). Milliseconds do not carry from one machine to another: the same commit's sheets cost 2-3x
more on a later VM, and on a shared VM the CPU time of the same render moves by 30-40 % from one
minute to the next. What carries is the comparison the goal stands for: the redesigned sheets
against the plain ones, on the same machine at the same moment. So the earlier commit's tree is
exported (``git archive``) and both ``bench/sheets.py`` run side by side, each pinned to its own
core, so that whatever the machine does falls on both alike. Figures only.

With ``--python OTHER`` this tree's bench runs under this interpreter and under OTHER (a venv of
another Python build, e.g. ``.venv-bench`` of ``make bench``) side by
side, the same way: the interpreter's build alone moves every figure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(tree: Path, core: int, label: str, out: dict, python: str = sys.executable) -> None:
    env = {**os.environ, "DEBUG": "1"}
    command = [python, "bench/sheets.py"]
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        command = ["taskset", "-c", str(core), *command]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    out[label] = [line for line in done.stdout.splitlines() if line.startswith("   ")]
    if done.returncode:
        out[label].append(f"   failed: {done.stderr[-2000:]}")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 2 and argv[0] == "--python":
        return against_interpreter(argv[1])
    revision = argv[0] if argv else "e57916b"
    with tempfile.TemporaryDirectory(prefix="dossier-sheets-against-") as folder:
        old = Path(folder) / "tree"
        old.mkdir()
        archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        # The old tree's bench needs the shared rules folder beside it, as a checkout has.
        shared = ROOT.parent / "shared"
        if shared.exists():
            (Path(folder) / "shared").symlink_to(shared)
        out: dict[str, list[str]] = {}
        threads = [
            threading.Thread(target=run, args=(old, 0, revision, out)),
            threading.Thread(target=run, args=(ROOT, 1, "this tree", out)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    for label in (revision, "this tree"):
        print(f"-- bench/sheets.py of {label}")
        print("\n".join(out.get(label, ["   (no figures)"])))


def against_interpreter(other: str) -> None:
    out: dict[str, list[str]] = {}
    labels = (sys.executable, other)
    threads = [
        threading.Thread(target=run, args=(ROOT, core, label, out, label))
        for core, label in enumerate(labels)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for label in labels:
        print(f"-- bench/sheets.py under {label}")
        print("\n".join(out.get(label, ["   (no figures)"])))


if __name__ == "__main__":
    main()
