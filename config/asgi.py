"""The ASGI entry point: uvicorn serves it (scripts/run.sh, deploy/), so that the campaigns' live
feeds (campaigns/live_views.py) hold their connections without a thread each."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
