"""Every streaming response streams from an async iterator under ASGI (issue 44, finding 11).

Django's ASGI handler reads a response's *synchronous* iterator whole into memory before it sends
the first byte, and warns "StreamingHttpResponse must consume synchronous iterators" each time. A
``FileResponse`` over a file object is one: WhiteNoise's static files and any download that is not
made with ``sheets.storage.file_response``. So is a response with no file at all: WhiteNoise answers
a conditional request (304, the browser's second look at every asset of every page) and a HEAD with
``WhiteNoiseFileResponse(())``, a FileResponse over an empty tuple, which has no ``file_to_stream``
(the one warning left under `make run` after the first pages). This middleware, just outside
WhiteNoise, hands each such response an async iterator under ASGI: over the same file, read in large
chunks, or over the response's own parts; under WSGI it leaves everything as it was."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest

from sheets.storage import ASYNC_CHUNK, async_chunks

_END = object()


class AsyncFileStreamsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not (
            getattr(response, "streaming", False)
            and not response.is_async
            and isinstance(request, ASGIRequest)
        ):
            return response
        filelike = getattr(response, "file_to_stream", None)
        # FileResponse keeps closing the file (its resource closers) and its headers
        if filelike is not None:
            response.streaming_content = async_chunks(filelike, ASYNC_CHUNK)
        else:
            response.streaming_content = async_parts(response.streaming_content)
        return response


async def async_parts(parts):
    """The parts of a synchronous iterator, one at a time (each from the request's thread, as Django
    would read them), never all of them at once."""
    parts = iter(parts)
    step = sync_to_async(next)
    while (part := await step(parts, _END)) is not _END:
        yield part
