"""DRF's browsable API under the Content-Security-Policy."""

from __future__ import annotations

from rest_framework import renderers


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's HTML pages load their scripts from static files (the CSP's script-src 'self' holds),
    but their templates set a few inline styles: these pages, and only they, allow inline styles."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if response is not None:
            response._csp_update = {"style-src": ["'unsafe-inline'"]}  # read by django-csp's middleware
        return super().render(data, accepted_media_type, renderer_context)
