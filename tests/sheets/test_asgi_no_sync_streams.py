"""No download streams a synchronous iterator under ASGI (issue 44, "Done when": no warning on a
download under `make run`).

Through the real ASGI application as uvicorn calls it (config/asgi.py), logged in by the session
cookie: every download route, each as a plain GET, a HEAD, and (static files) a conditional GET
that answers 304. WhiteNoise answers the last two with a FileResponse over an empty tuple, no file
to stream: the one "StreamingHttpResponse must consume synchronous iterators" warning `make run`
still printed after a player's first pages (config/async_files.py)."""

from __future__ import annotations

import asyncio
import warnings

import pytest
from asgiref.sync import async_to_sync
from django.core.asgi import get_asgi_application
from django.test import Client
from django.urls import reverse

from tests.live.helpers import asgi_receive
from tests.sheets.test_api_roles import done_render

SYNC_WARNING = "synchronous iterators"


async def _call(application, method: str, path: str, headers=()):
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"localhost"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    answer: dict = {"status": 0, "headers": {}, "body": b""}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await application(scope, asgi_receive(asyncio.Event()), send)
    return answer


def _fetch(method: str, path: str, headers=()):
    """The answer and the messages of every warning raised while it was served, each shown (not
    only the first from a place, as Python's default filter would)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # async_to_sync: the views' database work runs on this thread, inside the test's transaction
        answer = async_to_sync(_call)(get_asgi_application(), method, path, headers)
    return answer, [str(w.message) for w in caught if SYNC_WARNING in str(w.message)]


def _cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


def _download_paths(world, party, django_capture_on_commit_callbacks) -> dict[str, str]:
    from archive import services as archive_services
    from archive.tasks import run_export

    sheet = done_render(world.users["gm"], "character", world.campaign, party["player"])
    bundle = done_render(world.users["gm"], "party_bundle", world.campaign)
    with django_capture_on_commit_callbacks(execute=False):  # the job is run here, not queued
        export = archive_services.request_export(world.campaign, world.users["gm"])
    assert run_export(export.pk) == "done"
    pk = world.campaign.pk
    return {
        "sheet PDF": reverse("sheet-download", args=[sheet.pk]),
        "sheet PDF (API)": reverse("api-sheet-download", args=[sheet.pk]),
        "party bundle": reverse("sheet-download", args=[bundle.pk]),
        "campaign export": reverse("campaign-export-download", args=[pk, export.pk]),
        "campaign export (API)": f"/api/v1/campaigns/{pk}/exports/{export.pk}/download/",
        "character export": reverse("character-export", args=[pk, party["player"].pk]),
        "fair-dice verifier": reverse("campaign-dice-fair-verifier", args=[pk]),
        "fair-dice proofs": reverse("api-fair-dice", args=[pk]),
    }


# committed rows: the ASGI app answers from a thread of its own, with a connection of its own
# (PostgreSQL refused to open one inside the test's transaction: "Cannot open a new connection in
# an atomic block", a 500 in the services layer)
@pytest.mark.django_db(transaction=True)
def test_no_download_streams_a_sync_iterator_under_asgi(world, party, django_capture_on_commit_callbacks):
    paths = _download_paths(world, party, django_capture_on_commit_callbacks)
    cookie = _cookie(world.users["gm"])
    for name, path in paths.items():
        answer, caught = _fetch("GET", path, [cookie])
        assert answer["status"] == 200, (name, answer["status"], answer["body"][:300])
        assert answer["body"], name
        assert not caught, (name, "GET", caught)
        answer, caught = _fetch("HEAD", path, [cookie])
        assert answer["status"] in (200, 405), (name, "HEAD", answer["status"])  # some take GET only
        assert not caught, (name, "HEAD", caught)


@pytest.mark.parametrize("path", ["/static/js/app.js", "/static/css/app.css", "/static/favicon.ico"])
def test_a_static_file_warns_nothing_under_asgi_fresh_revalidated_or_headed(db, path):
    answer, caught = _fetch("GET", path)
    assert answer["status"] == 200 and answer["body"]
    assert not caught, ("GET", caught)
    etag = answer["headers"]["etag"]
    # The browser's second look at the asset: not modified, no body (WhiteNoise's FileResponse(()))
    answer, caught = _fetch("GET", path, [(b"if-none-match", etag.encode())])
    assert answer["status"] == 304 and answer["body"] == b""
    assert not caught, ("304", caught)
    answer, caught = _fetch("HEAD", path)
    assert answer["status"] == 200 and answer["body"] == b""
    assert not caught, ("HEAD", caught)
