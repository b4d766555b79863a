"""Logging filters named in settings.LOGGING."""

from __future__ import annotations

import logging


class NoTracebackFor403(logging.Filter):
    """django.request logs a refused request ("Forbidden (Permission denied): /path") with the
    exception's traceback; the line is worth keeping, the traceback is noise (the refusal is the
    app working as meant)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
