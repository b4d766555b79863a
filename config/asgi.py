"""The ASGI entry point: uvicorn serves it (scripts/run.sh, deploy/), so that the campaigns' live
feeds hold their connections without a thread each: their route answers before Django's
middleware (campaigns/live_asgi.py says why); everything else is Django."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from campaigns.live_asgi import LiveFeedRoute  # noqa: E402 (after Django is set up)

application = LiveFeedRoute(django_application)
