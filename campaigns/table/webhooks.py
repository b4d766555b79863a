"""Outgoing webhooks: a campaign's public events posted to a group's chat (docs/webhooks.md).

- What is sent is what an observer of the campaign sees: an open roll (never a secret one, nor a
  roll the system keeps from observers, such as a Tempo conflict's), a mission's published result.
- Bodies in the hook's format (Discord, Slack incoming webhook, generic JSON), signed:
  ``X-Dossier-Signature: sha256=<HMAC-SHA256(hook secret, body) hex>``.
- The guard: the host is resolved and every address checked; a private, loopback, link-local,
  reserved or multicast address is refused unless WEBHOOK_ALLOWED_HOSTS names the exact host:port.
  The connection goes to the address that was checked (no second lookup), and every redirect is
  checked the same way before it is followed.
- deliver_webhook (below) sends with retries and exponential backoff; a hook whose events
  keep failing (WEBHOOK_DISABLE_AFTER in a row) is disabled and the GM told on the campaign page.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import ipaddress
import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from celery import shared_task
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F

from campaigns.models import (
    SEEN_BY_MEMBERS,
    Membership,
    Mission,
    Role,
    Roll,
    Webhook,
    WebhookKind,
    _hidden_rolls,
)

SIGNATURE_HEADER = "X-Dossier-Signature"
MAX_REDIRECTS = 3


class Refused(Exception):
    """The URL may not be reached (an address the guard refuses, a bad scheme)."""


# -- what an observer sees ----------------------------------------------------------------------
def observer_sees(roll: Roll) -> bool:
    """Whether an observer of the roll's campaign sees the roll with its result."""
    if roll.secret:  # never sent, sealed or shared: a shared result is the GM's to tell the table
        return False
    observer = Membership(campaign=roll.campaign, role=Role.OBSERVER)
    rows = Roll.objects.filter(pk=roll.pk).filter(SEEN_BY_MEMBERS)
    hidden = _hidden_rolls(None, observer)
    if hidden is not None:
        rows = rows.exclude(hidden)
    return rows.exists()


def roll_event(roll: Roll) -> dict[str, Any]:
    """An open roll as an observer sees it in the log (no ids)."""
    return {
        "event": "roll",
        "campaign": roll.campaign.name,
        "roller": roll.roller.username if roll.roller else None,
        "character": roll.character.name if roll.character else None,
        "mission": roll.mission.title if roll.mission else None,
        "kind": roll.kind,
        "count": roll.count,
        "modifier": roll.modifier,
        "faces": list(roll.faces),
        "total": roll.total,
        "purpose": roll.purpose,
        "at": roll.created_at.isoformat(),
    }


def mission_event(mission: Mission, verdict: str) -> dict[str, Any]:
    """A published mission's result as every member sees it (the after-action verdict)."""
    return {
        "event": "mission_published",
        "campaign": mission.campaign.name,
        "mission": mission.title,
        "status": mission.get_status_display(),
        "verdict": verdict,
        "at": mission.published_at.isoformat() if mission.published_at else None,
    }


def _line(event: dict[str, Any]) -> str:
    if event["event"] == "roll":
        who = event["roller"] or "Someone"
        mod = f" {event['modifier']:+d}" if event["modifier"] else ""
        what = f"{event['kind']}{' x' + str(event['count']) if event['count'] > 1 else ''}{mod}"
        extra = "".join(
            f" ({part})" for part in (event["character"], event["mission"], event["purpose"]) if part
        )
        faces = " ".join(str(f) for f in event["faces"])
        return f"{who} rolled {what}: {faces} -> {event['total']}{extra}"
    return f"Mission {event['mission']}: {event['verdict'] or event['status']} (result published)"


def body_for(kind: str, event: dict[str, Any]) -> bytes:
    if kind == WebhookKind.DISCORD:
        payload: dict[str, Any] = {"content": _line(event)[:2000], "allowed_mentions": {"parse": []}}
    elif kind == WebhookKind.SLACK:
        # Slack reads <...> as links and mentions (<!channel>): escaped as its docs ask.
        text = _line(event).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        payload = {"text": text}
    else:
        payload = event
    return json.dumps(payload, separators=(",", ":"), sort_keys=True).encode("utf-8")


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


# -- the guard ----------------------------------------------------------------------------------
def _blocked(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast or ip.is_reserved or ip.is_link_local or ip.is_loopback


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    address: str
    path: str


def resolve(url: str) -> Target:
    """The address to connect to for ``url``, or Refused saying why. One lookup; every address it
    gives must pass (a name with one public and one private address is refused)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused("The URL must start with http:// or https:// and name a host.")
    if parts.username or parts.password:
        raise Refused("The URL may not carry a user name or password.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused("The URL's port is not a number from 1 to 65535.") from None
    host = parts.hostname
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Refused(f"The host {host} could not be found.") from None
    addresses = sorted({info[4][0] for info in found})
    if not addresses:
        raise Refused(f"The host {host} could not be found.")
    allowed = f"{host}:{port}" in settings.WEBHOOK_ALLOWED_HOSTS
    if not allowed and any(_blocked(a) for a in addresses):
        raise Refused(
            f"{host}:{port} is a private, loopback or link-local address; only hosts named in "
            "WEBHOOK_ALLOWED_HOSTS (host:port) may be."
        )
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, host, port, addresses[0], path)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to the checked address, with the certificate checked against the host name."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class DeadlinePassed(OSError):
    """The delivery as a whole took longer than WEBHOOK_DEADLINE_SECONDS."""


class _Deadline:
    """Cuts the connection of a delivery once its deadline passes, from a timer thread: a read
    blocked on a receiver that sends a byte every second (each read within the timeout) returns
    then, and the delivery fails saying why."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds
        self.passed = False

    def remaining(self) -> float:
        left = self.ends - time.monotonic()
        if left <= 0:
            self.passed = True
            raise self.error()
        return left

    def error(self) -> DeadlinePassed:
        return DeadlinePassed(f"took longer than {self.seconds:g} s in all")

    def watch(self, connection: http.client.HTTPConnection) -> threading.Timer:
        def cut() -> None:
            self.passed = True
            sock = connection.sock
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

        timer = threading.Timer(max(self.ends - time.monotonic(), 0), cut)
        timer.daemon = True
        timer.start()
        return timer


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST ``body`` to ``url``; the final status. Redirects (at most MAX_REDIRECTS) are checked
    by the guard before they are followed; Refused before any connection to a refused address.
    Each connect and read waits at most WEBHOOK_TIMEOUT_SECONDS, and the whole delivery at most
    WEBHOOK_DEADLINE_SECONDS (DeadlinePassed)."""
    deadline = _Deadline(settings.WEBHOOK_DEADLINE_SECONDS)
    for _ in range(MAX_REDIRECTS + 1):
        target = resolve(url)
        timeout = min(settings.WEBHOOK_TIMEOUT_SECONDS, deadline.remaining())
        if target.scheme == "https":
            connection: http.client.HTTPConnection = _PinnedHTTPS(target, timeout)
        else:
            connection = http.client.HTTPConnection(target.address, target.port, timeout=timeout)
        timer = deadline.watch(connection)
        try:
            host_header = target.host if target.port in (80, 443) else f"{target.host}:{target.port}"
            connection.request(
                "POST",
                target.path,
                body=body,
                headers={**headers, "Host": host_header, "Content-Type": "application/json"},
            )
            response = connection.getresponse()
            response.read(65536)
            location = response.getheader("Location")
        except (OSError, http.client.HTTPException):
            if deadline.passed:
                raise deadline.error() from None
            raise
        finally:
            timer.cancel()
            connection.close()
        if deadline.passed:
            raise deadline.error()
        if response.status in (301, 302, 303, 307, 308) and location:
            url = urljoin(url, location)
            continue
        return response.status
    raise Refused(f"More than {MAX_REDIRECTS} redirects.")


def check_url(url: str) -> None:
    """ValidationError naming the field if the GM's URL is refused now (checked again on every send)."""
    try:
        resolve(url)
    except Refused as error:
        raise ValidationError({"url": str(error)}) from None


# -- sending --------------------------------------------------------------------------------------
def queue(campaign_id: int, event: dict[str, Any]) -> int:
    """Queue the event for every enabled hook of the campaign; how many."""
    hooks = list(Webhook.objects.filter(campaign_id=campaign_id, enabled=True).values_list("pk", "kind"))
    for pk, kind in hooks:
        deliver_webhook.delay(pk, body_for(kind, event).decode("utf-8"))
    return len(hooks)


def roll_made(roll_id: int, campaign_id: int) -> None:
    """After a roll is stored: post it if an observer would see it. (Most campaigns have no hook:
    that is asked first, before the roll is read again.)"""
    if not Webhook.objects.filter(campaign_id=campaign_id, enabled=True).exists():
        return
    roll = (
        Roll.objects.select_related("campaign", "roller", "character", "mission").filter(pk=roll_id).first()
    )
    if roll is None:
        return
    if observer_sees(roll):
        queue(roll.campaign_id, roll_event(roll))


def after_commit_roll(roll: Roll) -> None:
    transaction.on_commit(lambda: roll_made(roll.pk, roll.campaign_id))


def after_commit_mission(mission: Mission, verdict: str) -> None:
    transaction.on_commit(lambda: queue(mission.campaign_id, mission_event(mission, verdict)))


@dataclass(frozen=True)
class Attempt:
    delivered: bool
    error: str = ""


def attempt(hook_id: int, body: str) -> Attempt:
    """One try at one event; a refused URL or a 4xx answer will not improve by retrying, but
    counts as a failure all the same."""
    hook = Webhook.objects.filter(pk=hook_id, enabled=True).first()
    if hook is None:
        return Attempt(True, "the hook is gone or disabled")
    data = body.encode("utf-8")
    try:
        status = post(
            hook.url, data, {SIGNATURE_HEADER: signature(hook.secret, data), "User-Agent": "Dossier"}
        )
    except Refused as error:
        return Attempt(False, str(error))
    except DeadlinePassed as error:
        return Attempt(False, f"the receiver {error}")
    except (OSError, http.client.HTTPException) as error:
        return Attempt(False, f"could not be reached: {error.__class__.__name__}")
    if 200 <= status < 300:
        return Attempt(True)
    return Attempt(False, f"answered {status}")


def backoff(retries: int) -> float:
    """Seconds before retry ``retries + 1``: the base, doubled each time."""
    return float(settings.WEBHOOK_BACKOFF_SECONDS * 2**retries)


def record_success(hook_id: int) -> None:
    Webhook.objects.filter(pk=hook_id).update(failures=0, last_error="")


def record_failure(hook_id: int, error: str) -> None:
    """An event that failed every try; after WEBHOOK_DISABLE_AFTER in a row the hook is disabled."""
    with transaction.atomic():
        Webhook.objects.filter(pk=hook_id).update(failures=F("failures") + 1, last_error=error[:300])
        hook = Webhook.objects.select_for_update().filter(pk=hook_id).first()
        if hook is not None and hook.enabled and hook.failures >= settings.WEBHOOK_DISABLE_AFTER:
            hook.enabled = False
            hook.disabled_reason = f"Disabled after {hook.failures} events failed in a row; last: {error}"[
                :300
            ]
            hook.save(update_fields=["enabled", "disabled_reason"])


def create_hook(membership: Membership, *, url: str, kind: str) -> Webhook:
    if not membership.is_gm:
        from django.core.exceptions import PermissionDenied

        raise PermissionDenied("Only the game master sets the campaign's webhooks.")
    if kind not in WebhookKind.values:
        raise ValidationError({"kind": f"Kind must be one of: {', '.join(WebhookKind.values)}."})
    check_url(url)
    return Webhook.objects.create(campaign=membership.campaign, url=url, kind=kind)


#: Deliveries wait on other people's servers, up to WEBHOOK_DEADLINE_SECONDS a try: they run on a
#: queue of their own (settings.CELERY_TASK_ROUTES), taken by a worker of their own (scripts/run.sh,
#: deploy/dossier-webhooks.service), so a few slow receivers never hold the workers that render
#: sheets and exports (issue 47).
@shared_task(bind=True, name="campaigns.deliver_webhook", acks_late=True, max_retries=None)
def deliver_webhook(self, hook_id: int, body: str) -> str:
    """Post one event to one hook: retried with exponential backoff up to
    WEBHOOK_MAX_ATTEMPTS tries; an event that fails them all counts against the hook."""
    result = attempt(int(hook_id), body)
    if result.delivered:
        record_success(int(hook_id))
        return "delivered"
    if self.request.retries + 1 < settings.WEBHOOK_MAX_ATTEMPTS:
        raise self.retry(countdown=backoff(self.request.retries))
    record_failure(int(hook_id), result.error)
    return "failed"
