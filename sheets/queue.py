"""Queuing a render: the one place that sends the render task (sheets/tasks.py).

sheets/services.py (a request) and sheets/tasks.py (the reconciler) queue through here; the task
module reads what it renders from sheets/pages.py, so no module of the app imports one that
imports it back (lint-imports: the "sheets has no import cycle" contract).
"""

from __future__ import annotations


def render(render_id: int) -> None:
    """Send the render task for ``render_id`` (the caller has committed its row)."""
    from sheets.tasks import render_sheet  # the task module imports Celery's app: loaded when used

    render_sheet.delay(render_id)
