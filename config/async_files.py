"""Files stream from an async iterator under ASGI (issue 44, finding 11).

Django's ASGI handler reads a response's *synchronous* iterator whole into memory before it sends
the first byte, and warns "StreamingHttpResponse must consume synchronous iterators" each time. A
``FileResponse`` over a file object is one: WhiteNoise's static files (one warning per asset of
every page view under `make run`) and any download that is not made with
``sheets.storage.file_response``. This middleware, just outside WhiteNoise, hands such a response
an async iterator over the same file under ASGI; under WSGI it leaves everything as it was."""

from __future__ import annotations

from django.core.handlers.asgi import ASGIRequest

from sheets.storage import ASYNC_CHUNK, async_chunks


class AsyncFileStreamsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        filelike = getattr(response, "file_to_stream", None)
        if (
            filelike is not None
            and getattr(response, "streaming", False)
            and not response.is_async
            and isinstance(request, ASGIRequest)
        ):
            # FileResponse keeps closing the file (its resource closers) and its headers
            response.streaming_content = async_chunks(filelike, ASYNC_CHUNK)
        return response
