"""What every API endpoint shares: one error format for every 4xx, and pagination."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.pagination import CursorPagination, PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from kernel.errors import Conflict, Refusal, problems
from kernel.input_boundary import InputRefused


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class StrictCursorPagination(CursorPagination):
    """Cursor pages of a long list (``what`` names it in the refusals): ``?page=`` and a cursor this
    list did not give are a 400 that says what to do, not a silent first page or a 404."""

    what = "the list"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def paginate_queryset(self, queryset, request, view=None):
        if "page" in request.query_params:
            list_name = self.what[:1].upper() + self.what[1:]
            raise exceptions.ValidationError(
                {"page": f"{list_name} has no page numbers: follow the next link (its cursor parameter)."}
            )
        return super().paginate_queryset(queryset, request, view)

    def decode_cursor(self, request):
        try:
            return super().decode_cursor(request)
        except exceptions.NotFound:
            raise exceptions.ValidationError(
                {"cursor": f"This is not a cursor of {self.what}: use the next or previous link as given."}
            ) from None


def _flatten(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """DRF's nested error detail as a flat list of {field, message}."""
    if isinstance(detail, dict):
        out: list[dict[str, str]] = []
        for key, value in detail.items():
            name = str(key)
            field = (
                prefix if name in ("non_field_errors", "detail") else (f"{prefix}.{name}" if prefix else name)
            )
            out.extend(_flatten(value, field))
        return out
    if isinstance(detail, list):
        out = []
        for index, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                out.extend(_flatten(value, f"{prefix}[{index}]" if prefix else f"[{index}]"))
            else:
                out.extend(_flatten(value, prefix))
        return out
    return [{"field": prefix, "message": str(detail)}]


TITLES = {
    400: "The request is not valid.",
    401: "You need to log in.",
    403: "You are not allowed to do that.",
    404: "Not found.",
    405: "That method is not allowed here.",
    409: "That conflicts with the current state.",
    413: "The request is too large.",
    415: "Unsupported content type.",
    429: "Too many requests.",
}


def error_response(status_code: int, errors: list[dict[str, str]], detail: str | None = None) -> Response:
    return Response(
        {"status": status_code, "detail": detail or TITLES.get(status_code, "Error."), "errors": errors},
        status=status_code,
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The one API error path: every refusal (DRF's, Django's and the domain's, kernel/errors.py)
    answered as {status, detail, errors: [{field, message}]}. Views let the services' refusals
    through instead of catching them."""
    if isinstance(exc, DjangoValidationError):
        code = status.HTTP_409_CONFLICT if isinstance(exc, Conflict) else status.HTTP_400_BAD_REQUEST
        set_rollback()
        return error_response(code, problems(exc))
    if isinstance(exc, Refusal):
        set_rollback()
        return error_response(exc.status, exc.errors(), exc.detail)
    if isinstance(exc, RequestDataTooBig):
        return error_response(413, [{"field": "", "message": "The request body is too large."}])
    if isinstance(exc, SuspiciousOperation):
        return error_response(400, [{"field": "", "message": "The request could not be read."}])
    if isinstance(exc, InputRefused):  # a refused query parameter, read (config/middleware.py)
        problem = exc.problem
        exc = exceptions.ValidationError({problem.path: [f"This value {problem.message}"]})
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = response.status_code
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        detail = TITLES[400]
    else:
        message = str(getattr(exc, "detail", "")) or TITLES.get(code, "Error.")
        errors = [{"field": "", "message": message}]
        detail = message
    response.data = {"status": code, "detail": detail, "errors": errors}
    if code == status.HTTP_401_UNAUTHORIZED and "WWW-Authenticate" not in response:
        response["WWW-Authenticate"] = "Token"
    return response
