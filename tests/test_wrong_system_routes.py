"""Every page and API route of a game system answers 404 for a campaign of another system (and
each builder for a character of another system).

The routes come from the URL conf, so a route added later is checked too: each view module (or,
where one module serves several systems, each route name) is either a system's or the platform's,
and an unclassified one fails the test. Each system route is asked for, with GET and POST, by the
GM, a player and an observer of a campaign of each other system, with that campaign's id and
its character's id filled in, and must answer 404 (never 200 with a form, 400, 403 or 405).

Routes keyed only by an object of the system (a Time to Kill run, a Tempo conflict, a sheet
render) have no campaign to fill in: such objects exist only in campaigns of their own system.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from campaigns.models import Membership, Role
from characters import registry
from tests import system_kit

SYSTEMS = tuple(system_kit.installed_keys())
ROLES = ("gm", "player", "observer")
METHODS = ("get", "post", "patch", "delete")

#: Routes of a platform module that belong to one system (none today: a system's routes live in its
#: own modules, the TIMEMASTER tally on the missions API paths included, and are classified by the
#: system's package).
SYSTEM_ROUTES: dict[str, str] = {}
#: View modules every system shares (campaigns, members, dice log, NPCs, characters and their
#: builders, sheets, archive).
PLATFORM_MODULES = {
    "campaigns.views",
    "campaigns.api",
    "campaigns.api_missions",
    "campaigns.npc_views",
    "campaigns.report_views",
    "campaigns.api_npcs",
    "campaigns.table.api_fair",
    "campaigns.table.api_rolls",
    "campaigns.table.fair_views",
    "campaigns.table.sheet_rolls",
    "campaigns.tokens",
    "campaigns.table.live_views",
    "campaigns.chronicle.play_session_views",
    "campaigns.chronicle.api_play_sessions",
    "campaigns.chronicle.views",
    "campaigns.chronicle.search_views",
    "campaigns.chronicle.api_search",
    "characters.views",
    "characters.api",
    "sheets.views",
    "sheets.api",
    "archive.views",
    "archive.api",
}
#: The platform's packages and every installed system's (a system outside systems/, such as the
#: toy system of tests/test_toy_system.py, included).
OUR_PACKAGES = (
    "campaigns",
    "characters",
    "sheets",
    "archive",
    *(f"{app.package}." for app in registry.installed()),
)

PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            view = pattern.callback
            owner = getattr(view, "cls", None) or getattr(view, "view_class", None) or view
            yield prefix + str(pattern.pattern), pattern.name, owner.__module__


def _system_of(name: str, module: str) -> str | None:
    """The system a route belongs to: named in SYSTEM_ROUTES, or served by a module of the
    system's own package (its folder)."""
    if name in SYSTEM_ROUTES:
        return SYSTEM_ROUTES[name]
    return next((app.key for app in registry.installed() if module.startswith(f"{app.package}.")), None)


def system_routes() -> list[tuple[str, str, str]]:
    """(system, route, name) for every route of a system; fails on a route nobody classified."""
    found, unclassified = [], []
    for route, name, module in _routes(get_resolver().url_patterns):
        if not module.startswith(OUR_PACKAGES):
            continue
        system = _system_of(name, module)
        if system:
            found.append((system, route, name))
        elif module not in PLATFORM_MODULES:
            unclassified.append(f"{route} ({name}, {module})")
    assert not unclassified, f"say whether these routes belong to a system or the platform: {unclassified}"
    return found


def _fill(route: str, campaign_id: int, character_id: int) -> str | None:
    """The URL with the campaign and character filled in (other ids: 1); None when the route
    names neither."""
    route = route.replace("^", "").replace("$", "")
    has_owner = False

    def value(match: re.Match) -> str:
        nonlocal has_owner
        before = route[: match.start()].removeprefix("api/v1/")
        if before.endswith("campaigns/") and before.count("/") == 1:
            has_owner = True
            return str(campaign_id)
        if before.endswith("characters/"):
            has_owner = True
            return str(character_id)
        return "1"

    url = "/" + PARAMETER.sub(value, route)
    return url if has_owner else None


@pytest.fixture
def campaigns_of_every_system(world):
    """One campaign per system with the same GM, player and observer; a character in each."""
    users = world.users
    made = {}
    for system in SYSTEMS:
        campaign = system_kit.make_campaign(users["gm"], system)
        for name, role in (("player", Role.PLAYER), ("observer", Role.OBSERVER)):
            Membership.objects.create(campaign=campaign, user=users[name], role=role)
        made[system] = (campaign, system_kit.make_character(campaign, users["player"], name="Kim"))
    return made


def test_every_route_is_classified_and_each_system_has_routes():
    routes = system_routes()
    assert {system for system, _, _ in routes} == set(SYSTEMS)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_systems_routes_answer_404_for_a_campaign_of_another_system(
    system, world, campaigns_of_every_system, client
):
    """A 405 says the route does not serve that method at all (whatever the campaign), so that
    method is not asked again; every route must serve at least one method, with a 404."""
    routes = [(route, name) for owner, route, name in system_routes() if owner == system]
    clients = {}
    for role in ROLES:
        clients[role] = Client()
        clients[role].force_login(world.users[role])
    wrong, served = [], set()
    for other in SYSTEMS:
        if other == system:
            continue
        campaign, character = campaigns_of_every_system[other]
        for route, name in routes:
            url = _fill(route, campaign.pk, character.pk)
            if url is None:
                continue
            for method in METHODS:
                for role in ROLES:
                    status = getattr(clients[role], method)(url).status_code
                    if status == 405:
                        break
                    served.add(name)
                    if status != 404:
                        wrong.append(f"{method.upper()} {url} ({name}) as {role} of {other}: {status}")
    filled = {name for route, name in routes if _fill(route, 1, 1)}
    assert filled, f"no {system} route names a campaign or a character"
    assert served == filled, f"routes that served no method: {filled - served}"
    assert not wrong, "\n".join(wrong)


def test_a_builders_steps_answer_404_for_a_character_of_another_system(
    world, campaigns_of_every_system, client
):
    """The builders share one route (characters/<id>/build/<step>/) and are chosen by the
    character's system: a step only another system's builder has is 404 for the owner and the GM
    of a draft (a finalized character is not built any more: 403 or a redirect whatever the step)."""
    from characters.builder import step_keys
    from characters.models import Character
    from characters.views import WIZARDS

    Character.objects.update(status=Character.Status.DRAFT)
    wrong = []
    for system, wizard in WIZARDS.items():
        for other, (_, character) in campaigns_of_every_system.items():
            foreign_steps = set(step_keys(wizard)) - set(step_keys(WIZARDS[other]))
            for role in ("player", "gm"):
                client.force_login(world.users[role])
                for step in sorted(foreign_steps):
                    for method in ("get", "post"):
                        status = getattr(client, method)(
                            f"/characters/{character.pk}/build/{step}/"
                        ).status_code
                        if status != 404:
                            wrong.append(
                                f"{method.upper()} {system} step {step!r} on a {other} character: {status}"
                            )
    assert not wrong, "\n".join(wrong)
