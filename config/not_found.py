"""A page that is not there shows the product's own "Not found" page under DEBUG too, and a
request the product refuses (``BadRequest``: a page position that is not one) its own 400 page.

`make run` serves the demo with DEBUG on (a development key, the demo logins on the login page),
and Django then answers a 404 with its technical page: the URL patterns of the whole site, which a
new user took for a crash (issue 44, the new-user walk's point 15). This middleware gives them the
page production gives (``campaigns.views.not_found``: the error page, or the API's JSON error). A
developer who wants Django's page back sets TECHNICAL_404=1. Without DEBUG it does nothing:
Django already uses ``handler404`` and ``handler400``. Under DEBUG Django answers a ``BadRequest``
with its technical page (the traceback, the settings' paths): the new-user walk of stop 57 met it
on a session page's ``?rolls_after=abc``; the product's page says what was wrong instead.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import Http404


def _wanted() -> bool:
    return bool(settings.DEBUG and not getattr(settings, "TECHNICAL_404", False))


class ProductNotFoundMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        # No view matched the address (request.resolver_match is set only when one does): under
        # DEBUG the answer is Django's technical page; a view's own 404 answer is left alone.
        if response.status_code == 404 and request.resolver_match is None and _wanted():
            return self._page(request)
        return response

    def process_exception(self, request, exception):
        """A view raised Http404 (a record that is not there, or not the user's)."""
        if isinstance(exception, Http404) and _wanted():
            return self._page(request, exception)
        if isinstance(exception, BadRequest) and _wanted():
            from campaigns.views import bad_request  # the project's handler400

            return bad_request(request, exception)
        return None

    @staticmethod
    def _page(request, exception=None):
        from campaigns.views import not_found  # the project's handler404

        return not_found(request, exception)
