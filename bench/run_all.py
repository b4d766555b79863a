"""Run every benchmark in bench/ and print its figures. Never fails on a time: figures only.

make bench            # all of them
.venv/bin/python bench/run_all.py engines   # one by name
"""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

BENCHES = [
    "engines", "pages", "load", "sheets", "bundles", "scale", "export_memory", "charts", "live", "chronicle",
]  # fmt: skip


def main(argv: list[str]) -> int:
    chosen = argv or BENCHES
    unknown = [name for name in chosen if name not in BENCHES]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; choose from {', '.join(BENCHES)}")
        return 2
    for name in chosen:
        started = time.perf_counter()
        print(f"== bench/{name}.py")
        importlib.import_module(name).main()
        print(f"   ({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
