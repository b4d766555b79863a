"""The ASGI entry point: uvicorn serves it (scripts/run.sh, deploy/), so that the campaigns' live
feeds hold their connections without a thread each: their route answers before Django's
middleware (campaigns/table/live_asgi.py says why); everything else is Django, its middleware run as
one synchronous block per request (``OneBlockASGIHandler``)."""

import os

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class OneBlockASGIHandler(ASGIHandler):
    """Django's ASGI handler with the whole middleware stack and the view run in one thread hop.

    Django's own handler builds the stack for async: each synchronous middleware (most of ours:
    the request log, the sessions, CSRF, authentication...) is adapted, and where an async-capable
    one sits inside them (django-prometheus's closing middleware, axes) the request crosses back
    to the event loop and out again to a thread for the view: three crossings a request, each with
    asgiref's context copied in and out, about a sixth of the server's CPU per roll under
    bench/live.py (docs/live.md). Built for sync, the same middleware in the same order run as
    one synchronous call (``BaseHandler.get_response``: the same URL conf, resource closers and
    error logging), entered once from the event loop in the request's thread-sensitive context,
    the thread its request_started and response.close hops use too. An async view (none is served
    here under uvicorn: the live feed has its own route) still runs, on the event loop, through
    Django's own adapter."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def warm_url_resolver() -> None:
    """Build the URL conf's reverse tables before the first request. Django builds them lazily,
    on the first ``reverse()`` (a ``{% url %}`` in a page), and every thread that finds them not
    yet built builds its own: the first rolls of a busy server (each request in a thread of its
    own) each built them at once, every step through the lock asgiref puts on the active
    language, and held 100 threads for seconds (docs/live.md, "sixth")."""
    from django.urls import get_resolver

    get_resolver().reverse_dict  # noqa: B018 (reading it builds it)


django.setup(set_prefix=False)
warm_url_resolver()
django_application = OneBlockASGIHandler()

from campaigns.table.live_asgi import LiveFeedRoute  # noqa: E402 (after Django is set up)

application = LiveFeedRoute(django_application)
