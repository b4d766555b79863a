"""The input boundary for everything that is not an API body: query strings, URL arguments and
the form fields of HTML pages, checked once for every view (kernel/input_boundary.py).

HTML pages: refused input is a 400 naming the field before the view runs, so nothing is stored.
API: bodies are checked by the DRF parsers (kernel/parsers.py); the query string is checked here
but refused only when the view reads the refused parameter (``CheckedQueryDict``), so that a
non-member still gets 404 and an anonymous client 401 first, as for any other bad input; the
refusal is a 400 in the API's error format (kernel/api.py).
"""

from __future__ import annotations

import json
from dataclasses import asdict

from csp.constants import HEADER as CSP_HEADER
from csp.middleware import CSPMiddleware
from csp.utils import build_policy
from django.http import HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils.html import format_html

from kernel import input_boundary

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


class CheckedQueryDict(QueryDict):
    """A query string whose refused parameters raise InputRefused when they are read (a refused
    name: when the parameters are listed); the others read as usual."""

    @classmethod
    def checked(cls, querydict: QueryDict, limit: input_boundary.Limits) -> QueryDict:
        refused = {}
        for name, values in querydict.lists():
            problem = input_boundary.form_problem([(name, value) for value in values], limit)
            if problem is not None:
                refused[name] = problem
        if not refused:
            return querydict
        wrapped = cls(mutable=True, encoding=querydict.encoding)
        for name, values in querydict.lists():
            wrapped.setlist(name, values)
        wrapped._mutable = False
        wrapped.refused = refused
        return wrapped

    def _check(self, name):
        if name in self.refused:
            raise input_boundary.InputRefused(self.refused[name])

    def _check_names(self):
        for problem in self.refused.values():
            if problem.message.startswith("has a name"):
                raise input_boundary.InputRefused(problem)

    def __getitem__(self, key):
        self._check(key)
        return super().__getitem__(key)

    def _getlist(self, key, default=None, force_list=False):
        self._check(key)
        return super()._getlist(key, default, force_list)

    def __iter__(self):
        self._check_names()
        return super().__iter__()

    def keys(self):
        self._check_names()
        return super().keys()

    def lists(self):
        for name in self.refused:
            self._check(name)
        return super().lists()


def _pairs(request, view_kwargs):
    yield from ((name, value) for name, value in view_kwargs.items() if isinstance(value, str))
    if _is_api(request):
        return  # the query string is checked when read (CheckedQueryDict), the body by the parsers
    yield from input_boundary.querydict_pairs(request.GET)
    if request.method in ("POST", "PUT", "PATCH") and request.content_type in FORM_TYPES:
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
        if _is_api(request):
            request.GET = CheckedQueryDict.checked(request.GET, input_boundary.limits())
        return None

    def process_exception(self, request, exception):
        """A refused query parameter read outside DRF (DRF's own handler answers inside it)."""
        if isinstance(exception, input_boundary.InputRefused):
            return refused_response(request, exception.problem)
        return None


class SecurityHeadersEverywhereMiddleware(CSPMiddleware):
    """django-csp's middleware on every answer (issue 28, finding 7).

    django-csp leaves the Content-Security-Policy off 404 and 500 answers while DEBUG is on (so that
    Django's technical pages keep their inline styles), which is how `make run` serves: its 404 page
    went out with no policy. Here a 404 or 500 gets the same policy as every other answer, DEBUG or
    not; Django's technical pages then show unstyled, which is the price of one policy everywhere.
    Placed before SecurityMiddleware and WhiteNoise in MIDDLEWARE, so redirects and static files
    carry it too.
    """

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        response = super().process_response(request, response)
        if response.status_code in (404, 500) and CSP_HEADER not in response:
            exempt = getattr(response, "_csp_exempt", False)
            if not exempt:
                parts = self.get_policy_parts(request=request, response=response)
                response[CSP_HEADER] = build_policy(**asdict(parts))
        return response
