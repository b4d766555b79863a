"""A confirm step before a destructive or final action (issue 21, defect 6), without JavaScript too.

A view guarded by ``confirm_first`` acts only on a POST that carries ``confirm=1``. Any other POST
is answered with a confirmation page that repeats what was posted (as hidden fields) plus
``confirm=1``, so the same action goes through once the user says yes. With JavaScript, static/js/
app.js asks in a ``<dialog>`` (forms marked ``data-confirm``) and adds ``confirm=1`` itself.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

SKIPPED = ("csrfmiddlewaretoken", "confirm")


def confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirm") == "1"


def confirm_first(
    request: HttpRequest,
    *,
    question: str,
    button: str,
    cancel: str,
    detail: str = "",
    context: dict | None = None,
) -> HttpResponse | None:
    """None when the POST is confirmed; else the page (or, for htmx, the fragment) that asks."""
    if confirmed(request):
        return None
    fields = [
        (key, value) for key in request.POST if key not in SKIPPED for value in request.POST.getlist(key)
    ]
    page = {
        "question": question,
        "detail": detail,
        "button": button,
        "cancel": cancel,
        "fields": fields,
        "action": request.path,
        **(context or {}),
    }
    template = "_confirm.html" if getattr(request, "htmx", False) else "confirm.html"
    return render(request, template, page)
