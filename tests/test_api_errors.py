"""One API error path: every refusal reaches the client as {status, detail, errors: [{field,
message}]}, answered by the one exception handler (kernel/api.py) from the domain's errors
(kernel/errors.py), never reformatted by a view.

Two checks: every route under /api/v1/ (walked from the URL conf, so a route added later is
checked too) answers a domain error raised inside it in the one format; and on a few routes of
each app a refusal of the real service behind the route comes through unchanged (the views no
longer catch it), a ``Conflict`` as 409.
"""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from rest_framework.views import APIView

from archive.problems import ArchiveRefused, Problem
from kernel.errors import Conflict
from tests.hardening.test_no_foreign_names import api_routes, fill

REFUSAL = {"__all__": ["Refused as a whole."], "name": ["Refused for the name."]}
REFUSED_ERRORS = [
    {"field": "", "message": "Refused as a whole."},
    {"field": "name", "message": "Refused for the name."},
]

#: A domain error -> the status and body every API route answers it with.
DOMAIN_ERRORS = {
    "refusal": (
        lambda: ValidationError(REFUSAL),
        {"status": 400, "detail": "The request is not valid.", "errors": REFUSED_ERRORS},
    ),
    "refusal-without-field": (
        lambda: ValidationError("Refused as a whole."),
        {
            "status": 400,
            "detail": "The request is not valid.",
            "errors": [{"field": "", "message": "Refused as a whole."}],
        },
    ),
    "conflict": (
        lambda: Conflict({"revision": ["It changed since you looked."]}),
        {
            "status": 409,
            "detail": "That conflicts with the current state.",
            "errors": [{"field": "revision", "message": "It changed since you looked."}],
        },
    ),
    "refusal-of-its-own": (
        lambda: ArchiveRefused(
            [Problem("characters[0].name", "Missing."), Problem("", "Too old.")], status=422
        ),
        {
            "status": 422,
            "detail": "The archive was refused; nothing was imported.",
            "errors": [
                {"field": "characters[0].name", "message": "Missing."},
                {"field": "", "message": "Too old."},
            ],
        },
    ),
    "permission": (
        lambda: PermissionDenied("Only the game master can do this."),
        {
            "status": 403,
            "detail": "Only the game master can do this.",
            "errors": [{"field": "", "message": "Only the game master can do this."}],
        },
    ),
}


def _path(regex: str) -> str:
    """The route's path with every id 1 (the view never gets as far as looking one up)."""
    names = {name: 1 for name in re.findall(r"\(\?P<(\w+)>", regex)}
    return fill(regex, names)


ROUTES = [(name, regex) for name, regex in api_routes() if "(?P<format>" not in regex]


def test_the_walk_finds_the_routes_of_every_app():
    names = {name for name, _ in ROUTES}
    for expected in (
        "campaign-list",
        "mission-tally",
        "npc-list",
        "api-check",
        "api-character-list",
        "api-character-bonus",
        "api-tempo-conflicts",
        "api-d6-encounter-list",
        "api-ttk-runs",
        "api-sheet-request",
        "api-campaign-import",
        "api-token",
    ):
        assert expected in names


@pytest.mark.parametrize("kind", sorted(DOMAIN_ERRORS))
def test_every_api_route_answers_a_domain_error_in_the_one_format(kind, db, api, make_user, monkeypatch):
    make_error, body = DOMAIN_ERRORS[kind]

    def refuse(self, request, *args, **kwargs):
        raise make_error()

    monkeypatch.setattr(APIView, "initial", refuse)
    client = api(make_user("reader"))
    wrong = []
    for method in ("get", "post"):
        for name, regex in ROUTES:
            response = getattr(client, method)(_path(regex), {}, format="json")
            if response.status_code != body["status"] or response.json() != body:
                wrong.append(f"{method.upper()} {name}: {response.status_code} {response.content[:200]!r}")
    assert not wrong, "\n".join(wrong)


# -- a refusal of the service behind a route comes through as it is --------------------------------
@pytest.fixture
def home(world):
    """The world's TIMEMASTER campaign with an agent, and a Time to Kill, Tempo and D6 campaign
    with the same GM, each with a character."""
    from campaigns import services
    from characters.models import Character
    from tests.sheets.conftest import BUILDERS

    gm, player = world.users["gm"], world.users["player"]
    campaigns, characters = {"timemaster": world.campaign}, {}
    for system in ("time_to_kill", "tempo", "d6"):
        module = "flashpoints" if system == "tempo" else ""
        campaigns[system] = services.create_campaign(
            gm, name=f"A {system} table", system=system, module=module
        )
    for system, campaign in campaigns.items():
        build = BUILDERS[system](name="Kim")
        characters[system] = Character.objects.create(
            campaign=campaign,
            owner=player if system == "timemaster" else gm,
            system=system,
            module=campaign.module,
            name="Kim",
            status="active",
            build=build,
            creation_build=build,
            revision=1,
        )
    return campaigns, characters


#: (route, its kwargs from the home campaigns, body, the service function that refuses)
SERVICE_ROUTES = {
    "campaigns: settings": (
        "patch",
        "campaign-detail",
        lambda c, a: {"pk": c["timemaster"].pk},
        lambda c, a: {"settings": {}},
        "campaigns.services.update_campaign_settings",
    ),
    "campaigns: accept an invitation": (
        "post",
        "api-accept-invitation",
        lambda c, a: {},
        lambda c, a: {"code": "abcdefgh"},
        "campaigns.services.accept_invitation",
    ),
    "missions: create": (
        "post",
        "mission-list",
        lambda c, a: {"campaign_pk": c["timemaster"].pk},
        lambda c, a: {"title": "Operation Bell"},
        "campaigns.missions.create_mission",
    ),
    "npcs: create": (
        "post",
        "npc-list",
        lambda c, a: {"campaign_pk": c["timemaster"].pk},
        lambda c, a: {"name": "Vex"},
        "campaigns.npc_services.create_npc",
    ),
    "checks: roll": (
        "post",
        "api-check",
        lambda c, a: {"campaign_pk": c["timemaster"].pk},
        lambda c, a: {"character": a["timemaster"].pk, "score": "ability:STR"},
        "systems.timemaster.action_checks.roll_check",
    ),
    "characters: new draft": (
        "post",
        "api-character-list",
        lambda c, a: {"campaign_pk": c["d6"].pk},
        lambda c, a: {"choices": {}},
        "characters.services.create_draft",
    ),
    "advancement: bonus": (
        "post",
        "api-character-bonus",
        lambda c, a: {"campaign_pk": c["timemaster"].pk, "pk": a["timemaster"].pk},
        lambda c, a: {"amount": 5, "session": "s1"},
        "systems.timemaster.advancement_services.award_bonus",
    ),
    "tempo: new conflict": (
        "post",
        "api-tempo-conflicts",
        lambda c, a: {"campaign_pk": c["tempo"].pk},
        lambda c, a: {"title": "On the roof", "sides": [{"name": "us"}, {"name": "them"}]},
        "systems.tempo.services.create_conflict",
    ),
    "tempo: fate refresh": (
        "post",
        "api-tempo-fate-refresh",
        lambda c, a: {"campaign_pk": c["tempo"].pk},
        lambda c, a: {},
        "systems.tempo.services.refresh_fate_points",
    ),
    "d6: new encounter": (
        "post",
        "api-d6-encounter-list",
        lambda c, a: {"campaign_pk": c["d6"].pk},
        lambda c, a: {"name": "Dockside", "method": "once_per_scene"},
        "systems.d6.services.create_encounter",
    ),
    "time to kill: start a run": (
        "post",
        "api-ttk-runs",
        lambda c, a: {"campaign_pk": c["time_to_kill"].pk},
        lambda c, a: {"ninja": a["time_to_kill"].pk, "title": "The Bell Tower"},
        "systems.time_to_kill.services.start_run",
    ),
}


@pytest.mark.parametrize("kind", ["refusal", "refusal-without-field", "conflict"])
@pytest.mark.parametrize("case", sorted(SERVICE_ROUTES))
def test_a_refusal_of_the_service_behind_a_route_reaches_the_client_in_the_one_format(
    case, kind, world, home, api, monkeypatch
):
    method, name, kwargs, data, target = SERVICE_ROUTES[case]
    make_error, body = DOMAIN_ERRORS[kind]
    module, function = target.rsplit(".", 1)
    called = []

    def refuse(*args, **kwargs):
        called.append(function)
        raise make_error()

    monkeypatch.setattr(__import__(module, fromlist=[function]), function, refuse)
    campaigns, characters = home
    user = world.users["player"] if name == "api-accept-invitation" else world.users["gm"]
    url = fill(dict(ROUTES)[name], kwargs(campaigns, characters))
    response = getattr(api(user), method)(url, data(campaigns, characters), format="json")
    assert called == [function], response.content
    assert response.status_code == body["status"]
    assert response.json() == body


def test_a_stale_revision_is_a_conflict_in_the_one_format(world, home, api):
    """The real thing, no stand-in: a write at an old revision of a TIMEMASTER agent."""
    campaigns, characters = home
    agent = characters["timemaster"]
    url = fill(
        dict(ROUTES)["api-character-bonus"], {"campaign_pk": campaigns["timemaster"].pk, "pk": agent.pk}
    )
    response = api(world.users["gm"]).post(url, {"amount": 5, "session": "s1", "revision": 7}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["status"] == 409 and body["detail"] == "That conflicts with the current state."
    [error] = body["errors"]
    assert error["field"] == "revision" and "revision 7, now 1" in error["message"]
