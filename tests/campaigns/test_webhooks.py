"""Outgoing webhooks (issue 32). Traffic never leaves the loopback: the receivers are local HTTP
servers on 127.0.0.1 allowlisted by host:port; a redirect goes to another loopback port that is
not allowlisted; the private-address cases resolve through a patched resolver, and any connection
attempted then fails the test."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import random
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import override_settings

from campaigns import missions
from campaigns.models import Webhook
from campaigns.table import rolling, webhooks
from campaigns.table.webhooks import deliver_webhook
from systems.timemaster import missions as tm_missions


class Receiver:
    """A local HTTP server: answers each POST with the next status of ``statuses`` (the last one
    repeats); a 3xx answer carries ``location``. Keeps every request it got."""

    def __init__(self, statuses=(200,), location=None):
        self.statuses, self.location, self.got, self.connections = list(statuses), location, [], 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                receiver.got.append((dict(self.headers), self.rfile.read(length)))
                status = receiver.statuses.pop(0) if len(receiver.statuses) > 1 else receiver.statuses[0]
                self.send_response(status)
                if 300 <= status < 400 and receiver.location:
                    self.send_header("Location", receiver.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        class Server(ThreadingHTTPServer):
            def verify_request(self, request, client_address):
                receiver.connections += 1
                return True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def allow(self):
        return [f"127.0.0.1:{self.port}"]


@pytest.fixture
def eager(monkeypatch):
    """Tasks run in the test's thread, retries included (eager apply ignores countdowns)."""
    countdowns = []
    monkeypatch.setattr(deliver_webhook, "delay", lambda *a: deliver_webhook.apply(args=a))
    original = webhooks.backoff

    def noted(retries):
        countdowns.append(original(retries))
        return countdowns[-1]

    monkeypatch.setattr(webhooks, "backoff", noted)
    return countdowns


def _hook(world, receiver, kind="json"):
    with override_settings(WEBHOOK_ALLOWED_HOSTS=receiver.allow):
        return webhooks.create_hook(world.membership["gm"], url=receiver.url, kind=kind)


def test_an_open_roll_is_delivered_signed_with_what_an_observer_sees(
    world, eager, django_capture_on_commit_callbacks
):
    with Receiver() as receiver, override_settings(WEBHOOK_ALLOWED_HOSTS=receiver.allow):
        hook = _hook(world, receiver)
        with django_capture_on_commit_callbacks(execute=True):
            roll = rolling.record_roll(
                world.membership["player"], kind="d6", count=2, purpose="Climb", rng=random.Random(1)
            )
    ((headers, body),) = receiver.got
    expected = "sha256=" + hmac.new(hook.secret.encode(), body, hashlib.sha256).hexdigest()
    assert headers["X-Dossier-Signature"] == expected
    event = json.loads(body)
    assert event == {
        "event": "roll", "campaign": "Time Corps", "roller": "player", "character": None, "mission": None,
        "kind": "d6", "count": 2, "modifier": 0, "faces": list(roll.faces), "total": roll.total,
        "purpose": "Climb", "at": roll.created_at.isoformat(),
    }  # fmt: skip
    assert str(roll.pk) not in body.decode()  # no database id
    assert Webhook.objects.get().failures == 0


@pytest.mark.parametrize("kind, key", [("discord", "content"), ("slack", "text")])
def test_chat_formats_carry_one_line(world, eager, django_capture_on_commit_callbacks, kind, key):
    with Receiver() as receiver, override_settings(WEBHOOK_ALLOWED_HOSTS=receiver.allow):
        _hook(world, receiver, kind)
        with django_capture_on_commit_callbacks(execute=True):
            rolling.record_roll(
                world.membership["player"],
                kind="d10",
                count=2,
                purpose="<!channel> @everyone",
                rng=random.Random(2),
            )
    payload = json.loads(receiver.got[0][1])
    assert payload[key].startswith("player rolled d10 x2: ")
    if kind == "slack":  # the purpose, defused: Slack reads <!channel> as a mention
        assert "&lt;!channel&gt; @everyone" in payload[key] and "<!channel>" not in payload[key]
    else:  # Discord pings nobody whatever the text says
        assert "@everyone" in payload[key] and payload["allowed_mentions"] == {"parse": []}


def test_a_secret_roll_is_never_sent_sealed_or_shared(world, eager, django_capture_on_commit_callbacks):
    gm = world.membership["gm"]
    with Receiver() as receiver, override_settings(WEBHOOK_ALLOWED_HOSTS=receiver.allow):
        _hook(world, receiver)
        with django_capture_on_commit_callbacks(execute=True):
            secret = rolling.record_roll(gm, kind="percent", secret=True)
            rolling.record_roll(gm, kind="d1000", secret=True, announced=False)
            rolling.record_roll(world.membership["player"], kind="percent", secret_by_rule=True)
            rolling.reveal_roll(gm, secret)
    assert receiver.got == [] and receiver.connections == 0


def test_a_500_is_retried_with_backoff(world, eager, django_capture_on_commit_callbacks):
    with (
        Receiver(statuses=(500, 500, 200)) as receiver,
        override_settings(WEBHOOK_ALLOWED_HOSTS=receiver.allow),
    ):
        _hook(world, receiver)
        with django_capture_on_commit_callbacks(execute=True):
            rolling.record_roll(world.membership["player"], kind="d6", rng=random.Random(3))
    assert len(receiver.got) == 3 and receiver.got[0][1] == receiver.got[2][1]
    assert eager == [5.0, 10.0]  # WEBHOOK_BACKOFF_SECONDS, doubled
    assert Webhook.objects.get().failures == 0


def test_a_redirect_to_a_port_not_allowlisted_is_refused_without_connecting(
    world, eager, django_capture_on_commit_callbacks
):
    with Receiver() as elsewhere, Receiver(statuses=(307,), location=elsewhere.url) as first:  # noqa: SIM117
        with override_settings(WEBHOOK_ALLOWED_HOSTS=first.allow, WEBHOOK_MAX_ATTEMPTS=1):
            _hook(world, first)
            with django_capture_on_commit_callbacks(execute=True):
                rolling.record_roll(world.membership["player"], kind="d6", rng=random.Random(4))
    assert len(first.got) == 1 and elsewhere.connections == 0
    hook = Webhook.objects.get()
    assert hook.failures == 1 and "loopback" in hook.last_error


@pytest.fixture
def no_connection(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a connection was attempted")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(http.client.HTTPConnection, "connect", refuse)


@pytest.mark.parametrize(
    "address",
    [
        "10.1.2.3",
        "192.168.0.10",
        "172.16.5.5",
        "127.0.0.1",
        "169.254.169.254",
        "::1",
        "fe80::1",
        "fd00::5",
        "::ffff:10.0.0.1",
        "0.0.0.0",
    ],
)
def test_a_private_address_is_refused_after_resolution(world, monkeypatch, no_connection, address):
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    monkeypatch.setattr(
        socket, "getaddrinfo", lambda host, port, **kw: [(family, socket.SOCK_STREAM, 6, "", (address, port))]
    )
    with pytest.raises(webhooks.Refused):
        webhooks.post("https://chat.example.com/hook", b"{}", {})
    with pytest.raises(Exception) as refused:
        webhooks.create_hook(world.membership["gm"], url="https://chat.example.com/hook", kind="json")
    assert "url" in refused.value.message_dict
    assert not Webhook.objects.exists()


def test_a_name_with_one_public_and_one_private_address_is_refused(monkeypatch, no_connection):
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda host, port, **kw: [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.1", port)),
        ],
    )
    with pytest.raises(webhooks.Refused):
        webhooks.post("https://chat.example.com/hook", b"{}", {})


@pytest.mark.parametrize(
    "url",
    ["ftp://example.com/x", "http://user:pw@example.com/", "http:///nohost", "http://example.com:99999/"],
)
def test_a_bad_url_is_refused(url, no_connection):
    with pytest.raises(webhooks.Refused):
        webhooks.resolve(url)


def test_a_hook_that_keeps_failing_is_disabled_and_the_gm_told(
    world, eager, client, django_capture_on_commit_callbacks
):
    with (
        Receiver(statuses=(500,)) as receiver,
        override_settings(
            WEBHOOK_ALLOWED_HOSTS=receiver.allow, WEBHOOK_MAX_ATTEMPTS=2, WEBHOOK_DISABLE_AFTER=2
        ),
    ):
        _hook(world, receiver)
        for seed in (5, 6, 7):
            with django_capture_on_commit_callbacks(execute=True):
                rolling.record_roll(world.membership["player"], kind="d6", rng=random.Random(seed))
    hook = Webhook.objects.get()
    assert (
        not hook.enabled
        and "2 events failed in a row" in hook.disabled_reason
        and "500" in hook.disabled_reason
    )
    assert len(receiver.got) == 4  # two events, two tries each; the third event is not sent
    client.force_login(world.users["gm"])
    assert 'data-testid="webhook-disabled"' in client.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    for role in ("player", "observer"):
        client.force_login(world.users[role])
        assert "webhook" not in client.get(f"/campaigns/{world.campaign.pk}/").content.decode().lower()


def test_a_published_mission_result_is_sent(world, eager, django_capture_on_commit_callbacks):
    from tests.campaigns.test_missions import roll_of

    gm = world.membership["gm"]
    from tests.secrets.worlds import _agent, _mission, _start

    agent = _agent(world.campaign, world.users["player"], "Harry Adams")
    mission = _start(_mission(world.campaign, [agent], "Vienna", 1805, 100), world.users["gm"])
    closed = tm_missions.close_mission(gm, mission, "failure", rng=roll_of(500))
    with Receiver() as receiver, override_settings(WEBHOOK_ALLOWED_HOSTS=receiver.allow):
        _hook(world, receiver)
        with django_capture_on_commit_callbacks(execute=True):
            missions.publish_mission(closed, world.users["gm"])
    event = json.loads(receiver.got[0][1])
    assert event["event"] == "mission_published" and event["mission"] == "Vienna"
    assert set(event) == {
        "event",
        "campaign",
        "mission",
        "status",
        "verdict",
        "at",
    }  # no rating, tally or awards


def test_the_body_is_the_same_whether_or_not_the_gm_hid_something(
    world, eager, django_capture_on_commit_callbacks, monkeypatch
):
    """Non-interference for webhooks: the same public roll gives the same body with or without a
    secret roll, an unannounced roll and a hidden NPC made before it."""
    from django.utils import timezone

    from campaigns import npc_services

    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    bodies = []
    for hidden in (True, False):
        with Receiver() as receiver, override_settings(WEBHOOK_ALLOWED_HOSTS=receiver.allow):
            hook = _hook(world, receiver)
            with django_capture_on_commit_callbacks(execute=True):
                if hidden:
                    rolling.record_roll(world.membership["gm"], kind="percent", secret=True)
                    rolling.record_roll(world.membership["gm"], kind="d1000", secret=True, announced=False)
                    npc_services.create_npc(
                        world.campaign,
                        world.users["gm"],
                        {"name": "Spy", "revealed": False, "significance_rating": 7},
                    )
                rolling.record_roll(world.membership["player"], kind="d6", rng=random.Random(9))
            hook.delete()
        bodies.append([body for _, body in receiver.got])
    assert bodies[0] == bodies[1] and len(bodies[0]) == 1


ROLES = ("gm", "player", "observer", "outsider", "anonymous")
GM_ONLY = {"gm": 200, "player": 403, "observer": 403, "outsider": 404, "anonymous": 401}
WALKED_ROUTES = {"api-webhooks", "api-webhook"}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("method", ["get", "post", "enable", "delete"])
def test_every_webhook_endpoint_is_the_gms(world, api, role, method, monkeypatch):
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda host, port, **kw: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))],
    )
    hook = Webhook.objects.create(
        campaign=world.campaign, url="https://chat.example.com/h", kind="slack", enabled=False
    )
    client = api(None if role == "anonymous" else world.users[role])
    base = f"/api/v1/campaigns/{world.campaign.pk}/webhooks/"
    if method == "get":
        response = client.get(base)
    elif method == "post":
        response = client.post(base, {"url": "https://chat.example.com/x", "kind": "discord"}, format="json")
    elif method == "enable":
        response = client.post(f"{base}{hook.pk}/")
    else:
        response = client.delete(f"{base}{hook.pk}/")
    want = GM_ONLY[role]
    if role == "gm":
        want = {"get": 200, "post": 201, "enable": 200, "delete": 204}[method]
    assert response.status_code == want, response.content
    if role != "gm":
        assert Webhook.objects.count() == 1 and not Webhook.objects.get().enabled
        assert "secret" not in response.content.decode() or response.status_code >= 400


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ["add", "enable", "remove", "bogus"])
def test_the_webhook_forms_are_the_gms(world, client, role, action, monkeypatch):
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda host, port, **kw: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))],
    )
    hook = Webhook.objects.create(campaign=world.campaign, url="https://chat.example.com/h", enabled=False)
    if role != "anonymous":
        client.force_login(world.users[role])
    c = world.campaign.pk
    if action == "add":
        response = client.post(
            f"/campaigns/{c}/webhooks/",
            {"webhook-url": "https://chat.example.com/x", "webhook-kind": "slack"},
        )
    else:
        response = client.post(f"/campaigns/{c}/webhooks/{hook.pk}/{action}/")
    if role == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    elif role == "gm":
        assert response.status_code == (404 if action == "bogus" else 302)
    else:
        assert response.status_code == {"player": 403, "observer": 403, "outsider": 404}[role]
    if role != "gm" or action == "bogus":
        assert list(Webhook.objects.values_list("enabled", flat=True)) == [False]
    elif action == "add":
        assert Webhook.objects.filter(kind="slack", enabled=True).exists()
    elif action == "enable":
        assert Webhook.objects.get().enabled
    else:
        assert not Webhook.objects.exists()


def test_the_settings_page_lists_the_hooks_and_refuses_a_private_url(world, client, monkeypatch):
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda host, port, **kw: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.8", port))],
    )
    client.force_login(world.users["gm"])
    settings_url = f"/campaigns/{world.campaign.pk}/settings/"
    response = client.post(
        f"/campaigns/{world.campaign.pk}/webhooks/",
        {"webhook-url": "https://chat.lan/x", "webhook-kind": "discord"},
    )
    # Refused, it goes back to the settings page (which a reload or bookmark can reach: the add's own
    # address answers only POST), the form's values and errors kept (issue 44, finding 8; it was a 400
    # page at /webhooks/).
    assert response.status_code == 302 and response["Location"] == settings_url + "#webhooks-title"
    assert not Webhook.objects.exists()
    page = client.get(settings_url).content.decode()
    assert "WEBHOOK_ALLOWED_HOSTS" in page and 'role="alert"' in page
    assert 'value="https://chat.lan/x"' in page and '<option value="discord" selected>' in page
    assert "aria-invalid" in page
    # shown once: the next visit is the plain page
    again = client.get(settings_url).content.decode()
    assert "WEBHOOK_ALLOWED_HOSTS" not in again and 'value="https://chat.lan/x"' not in again
    hook = Webhook.objects.create(campaign=world.campaign, url="https://chat.example.com/h", kind="slack")
    page = client.get(f"/campaigns/{world.campaign.pk}/settings/").content.decode()
    assert "Chat webhooks" in page and hook.secret in page
