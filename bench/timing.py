"""Small helpers the benchmarks share: time a callable many times and report percentiles."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def measure(fn: Callable[[], object], *, repeat: int, warmup: int = 3) -> list[float]:
    """Seconds per call, one figure per call, after a few warm-up calls."""
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


def summary(label: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(round(p / 100 * (len(ms) - 1))))]

    rate = len(ms) / (sum(ms) / 1000) if sum(ms) else float("inf")
    return (
        f"   {label:<44} n={len(ms):<5} {rate:9.0f}/s  mean {statistics.fmean(ms):7.3f} ms"
        f"  p50 {pct(50):7.3f}  p95 {pct(95):7.3f}  p99 {pct(99):7.3f}"
    )
