"""One webhook delivery has an overall deadline (issue 47, finding 4): a receiver that answers a
byte at a time, each within the per-read timeout, no longer holds the worker until Celery's hard
limit. A tarpit on the loopback (allowed by WEBHOOK_ALLOWED_HOSTS) trickles a whole, valid answer
slowly enough that only the deadline can end the delivery first."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from django.test import override_settings

from campaigns.models import Webhook, WebhookKind
from campaigns.table import webhooks

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def _read_request(client: socket.socket) -> None:
    """The whole request, headers and body (http.client sends them apart): a socket closed with
    unread bytes resets the connection instead of ending it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = client.recv(65536)
        if not chunk:
            return
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = client.recv(65536)
        if not chunk:
            return
        body += chunk


class Tarpit:
    """Reads the request, then sends ANSWER one byte every ``every`` seconds (~8 s in all)."""

    def __init__(self, every: float = 0.15) -> None:
        self.every = every
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.allow = [f"127.0.0.1:{self.port}"]
        self.stop = threading.Event()
        self.sent = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        self.server.settimeout(10)
        try:
            client, _ = self.server.accept()
        except OSError:
            return
        with client:
            client.settimeout(10)
            _read_request(client)
            for byte in ANSWER:
                if self.stop.is_set():
                    return
                try:
                    client.sendall(bytes([byte]))
                except OSError:
                    return  # the sender cut the connection
                self.sent += 1
                time.sleep(self.every)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.server.close()
        self.thread.join(15)


@pytest.mark.django_db
def test_a_receiver_that_trickles_its_answer_is_cut_off_at_the_deadline(world):
    with Tarpit() as tarpit:
        hook = Webhook.objects.create(
            campaign=world.campaign, url=f"http://127.0.0.1:{tarpit.port}/hook", kind=WebhookKind.JSON
        )
        # each byte comes well within the read timeout; the whole answer would take ~8 s
        with override_settings(
            WEBHOOK_ALLOWED_HOSTS=tarpit.allow, WEBHOOK_TIMEOUT_SECONDS=1.0, WEBHOOK_DEADLINE_SECONDS=1.0
        ):
            result = webhooks.attempt(hook.pk, '{"event": "test"}')
        sent = tarpit.sent
    assert not result.delivered, "the trickled answer was read to its end: no deadline"
    assert result.error == "the receiver took longer than 1 s in all", result.error
    assert 0 < sent < len(ANSWER)  # it was cut off in the middle of the answer


@pytest.mark.django_db
def test_a_receiver_that_answers_in_time_is_delivered_as_before(world):
    with Tarpit(every=0.0) as tarpit:
        hook = Webhook.objects.create(
            campaign=world.campaign, url=f"http://127.0.0.1:{tarpit.port}/hook", kind=WebhookKind.JSON
        )
        with override_settings(WEBHOOK_ALLOWED_HOSTS=tarpit.allow, WEBHOOK_DEADLINE_SECONDS=5.0):
            result = webhooks.attempt(hook.pk, '{"event": "test"}')
    assert result.delivered, result.error
