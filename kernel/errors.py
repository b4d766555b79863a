"""The domain's refusals, raised by services and answered by the one API error path.

Services refuse with Django's ``ValidationError`` (the HTML views attach it to their forms); the
API's exception handler (``kernel.api.exception_handler``) answers it as 400 in the one error
format. A refusal because the state moved on since the client looked is a ``Conflict`` and is
answered as 409. ``PermissionDenied`` and ``Http404`` keep their Django meaning (403, 404).

    ValidationError (django)          400  the request asks for something the rules refuse
      Conflict                        409  the state moved on (a stale revision, a run already over)
    Refusal                           its own status, problems and title (an archive's import, a
                                      sheet request: refusals that are not a form's)
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

NON_FIELD_KEYS = ("__all__", "non_field_errors")


class Conflict(ValidationError):
    """The request was right when the client looked, but the state moved on: HTTP 409."""


class Refusal(Exception):
    """A refusal that carries its own HTTP status and problems; ``detail`` is its title (None: the
    status's own)."""

    status: int = 400
    detail: str | None = None

    def errors(self) -> list[dict[str, str]]:
        return [{"field": "", "message": str(self)}]


def problems(error: ValidationError) -> list[dict[str, str]]:
    """The refusal as a flat list of {field, message}; a message for no field has the field ""."""
    if not hasattr(error, "error_dict"):
        return [{"field": "", "message": message} for message in error.messages]
    return [
        {"field": "" if field in NON_FIELD_KEYS else field, "message": message}
        for field, messages in error.message_dict.items()
        for message in messages
    ]
