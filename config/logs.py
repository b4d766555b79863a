"""Request ids and one log line per request and per job (JSON lines when LOG_FORMAT=json).

A request's id comes from its ``X-Request-ID`` header (a load balancer or proxy sets one) or is
made here; it is sent back in the response, stamped on every log line the request writes, put in
the headers of every Celery task the request queues, and stamped on every line that job writes.
So an operator follows one click from the proxy through any web node to whichever worker ran it.
"""

from __future__ import annotations

import contextvars
import logging
import re
import time
import uuid

from celery import signals
from django.utils.functional import SimpleLazyObject, empty

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
#: A request id accepted from outside: short, and nothing that could forge a log line.
VALID_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
HEADER = "request_id"

request_log = logging.getLogger("dossier.request")
job_log = logging.getLogger("dossier.job")


def new_request_id() -> str:
    return uuid.uuid4().hex


_base_record_factory = logging.getLogRecordFactory()


def _record_with_request_id(*args, **kwargs) -> logging.LogRecord:
    record = _base_record_factory(*args, **kwargs)
    record.request_id = request_id_var.get()
    return record


# Every record gets the id when it is made, whichever handler (ours, an operator's, pytest's) reads it.
logging.setLogRecordFactory(_record_with_request_id)


class RequestIdFilter(logging.Filter):
    """Stamps the current request (or job) id on a record made before this module was imported."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id_var.get()
        return True


def _user_id(request) -> int | None:
    """The signed-in user's id if the request already looked them up (never a query of its own)."""
    user = request.__dict__.get("user")
    if user is None or (isinstance(user, SimpleLazyObject) and user._wrapped is empty):
        return None
    return user.pk if user.is_authenticated else None


class RequestLogMiddleware:
    """Takes or makes the request id, answers it back, and logs one line when the response leaves."""

    def __init__(self, get_response):
        from urllib.parse import urlsplit

        from django.conf import settings

        self.get_response = get_response
        # STATIC_URL's path ("static/" -> "/static/"; a full URL's path part)
        self.static_prefix = "/" + urlsplit(settings.STATIC_URL).path.lstrip("/")

    def __call__(self, request):
        incoming = request.headers.get("X-Request-ID", "")
        request_id = incoming if VALID_REQUEST_ID.match(incoming) else new_request_id()
        request.request_id = request_id
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = request_id
            match = getattr(request, "resolver_match", None)
            # A page view fetches its static files too (a 304 each, once cached): at INFO they
            # buried the page views they belong to (issue 44, finding 11); DEBUG brings them back.
            static = request.path.startswith(self.static_prefix)
            request_log.log(
                logging.DEBUG if static else logging.INFO,
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "view": match.view_name if match else "",
                    "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    "user_id": _user_id(request),
                },
            )
            return response
        finally:
            request_id_var.reset(token)


# --- Celery: the id travels in the task's headers and is stamped on the job's log lines ----------


@signals.before_task_publish.connect
def _send_request_id(headers=None, **_):
    if headers is not None and HEADER not in headers:
        headers[HEADER] = request_id_var.get()


_job_started: dict[str, float] = {}


@signals.task_prerun.connect
def _start_job(task_id=None, task=None, **_):
    # A worker puts a message's own headers on the request; an eager apply(headers=...) nests them.
    request_id = getattr(task.request, HEADER, None) or (task.request.headers or {}).get(HEADER) or "-"
    request_id_var.set(request_id if request_id != "-" else f"job-{task_id}")
    _job_started[task_id] = time.perf_counter()


@signals.task_postrun.connect
def _finish_job(task_id=None, task=None, state=None, retval=None, **_):
    started = _job_started.pop(task_id, None)
    job_log.info(
        "job %s %s %s",
        task.name,
        task_id,
        state,
        extra={
            "task": task.name,
            "task_id": task_id,
            "state": state,
            "result": retval if isinstance(retval, str | int | float | type(None)) else type(retval).__name__,
            "duration_ms": round((time.perf_counter() - started) * 1000, 2) if started else None,
            "retries": task.request.retries,
        },
    )
    request_id_var.set("-")
