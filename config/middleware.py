"""The input boundary for everything that is not an API body: query strings, URL arguments and
the form fields of HTML pages, checked once for every view (config/input_boundary.py).

API bodies are checked by the DRF parsers (config/parsers.py), which answer in the API's error
format; this middleware checks an API request's query string and URL arguments only. Refused
input is a 400 naming the field, and the view never runs, so nothing is stored.
"""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils.html import format_html

from config import input_boundary

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def _pairs(request, view_kwargs):
    yield from ((name, value) for name, value in view_kwargs.items() if isinstance(value, str))
    yield from input_boundary.querydict_pairs(request.GET)
    if (
        not _is_api(request)
        and request.method in ("POST", "PUT", "PATCH")
        and request.content_type in FORM_TYPES
    ):
        yield from input_boundary.querydict_pairs(request.POST)


def refused_response(request, problem: input_boundary.Problem) -> HttpResponse:
    message = (
        f"The field “{problem.path}” {problem.message}" if problem.path else f"The request {problem.message}"
    )
    if _is_api(request):
        body = {
            "status": 400,
            "detail": "The request is not valid.",
            "errors": [{"field": problem.path, "message": f"This value {problem.message}"}],
        }
        return HttpResponse(json.dumps(body), status=400, content_type="application/json")
    if request.headers.get("HX-Request"):
        return HttpResponse(format_html('<p class="error" role="alert">{}</p>', message), status=400)
    context = {"title": "Nothing was saved", "message": f"{message} Go back, correct it and send it again."}
    return render(request, "error.html", context, status=400)


class InputBoundaryMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        try:
            problem = input_boundary.form_problem(_pairs(request, view_kwargs), input_boundary.limits())
        except MultiPartParserError as error:  # Django raises it as is (a 500) from request.POST
            problem = input_boundary.Problem("", f"could not be read as a form: {error}")
        if problem is not None:
            return refused_response(request, problem)
        return None
