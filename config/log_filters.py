"""Logging filters named in settings.LOGGING."""

from __future__ import annotations

import logging


class OneLinePerClientError(logging.Filter):
    """django.request logs every 4xx answer ("Bad Request: /path") beside the access line
    (config.logs.RequestLogMiddleware), which already says the path and the status: a form error
    was two lines (issue 44, finding 11). Client errors keep the access line only; 5xx keep both,
    the traceback included."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        return not (isinstance(status, int) and 400 <= status < 500)
