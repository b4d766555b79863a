"""The sheets' own figure for Prometheus (config/metrics.py serves every figure on /metrics): the
time a worker spent on one render. Here, in the app that observes it, so the platform never
imports the project's wiring (config)."""

from __future__ import annotations

from prometheus_client import Histogram

RENDER_SECONDS = Histogram(
    "dossier_sheet_render_seconds",
    "Time a worker spent rendering one sheet, by kind and outcome (done, failed).",
    ["kind", "outcome"],
    buckets=(0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120),
)
