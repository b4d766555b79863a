"""Issue 18: the hostile inputs against EVERY writable API operation (from the OpenAPI schema) and
every HTML route (from the URL conf), as the game master of campaigns of all four systems with
real rows behind every id: never a 5xx, and nothing stored.

The operations and routes are generated; what is written by hand is only how to find a real row
for a path segment (``campaigns/{id}`` is a campaign, ``missions/{id}`` a mission ...). Each
request runs in a savepoint that is rolled back, so every one meets the same world. "Nothing
stored": a refused request leaves every table's row count as it was, and no request leaves a value
in the database that the boundary refuses (``find_bad_text``'s scan, run after every request that
was not refused).
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest
from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, get_resolver

from campaigns.management.commands import find_bad_text
from campaigns.table import rolling
from tests.archive.conftest import make_campaign, make_hero, play_campaign  # noqa: F401  (fixtures)

#: name -> JSON text of the hostile value (raw: json.dumps can write neither of the first and last).
HOSTILE_JSON = {
    "lone surrogate": '"a\\udc00b"',
    "NUL": '"a\\u0000b"',
    "600 deep": "[" * 600 + "]" * 600,
    "4301 digits": "7" * 4301,
    "1 MB string": json.dumps("x" * 1_000_000),
}
#: name -> (field name, value) for forms and query strings (a browser cannot send a lone
#: surrogate: Django decodes form bytes with replacement characters).
HOSTILE_FORM = {
    "NUL": (None, "a\x00b"),
    "escape control": (None, "a\x1b[31mb"),
    "1 MB string": (None, "x" * 1_000_000),
    "4301 digits": (None, "7" * 4301),
    "4301-digit field name": ("skill_" + "1" * 4301, "1"),
}
FORM = "application/x-www-form-urlencoded"
WRITES = ("post", "put", "patch")


@pytest.fixture
def arena(world, make_campaign, make_hero, play_campaign):  # noqa: F811
    """Campaigns of all four systems with a row behind every kind of id, by path segment."""
    from campaigns import missions, npc_services
    from campaigns import services as campaign_services
    from campaigns.chronicle import notes, play_sessions
    from campaigns.models import Note, SignificanceEntry
    from characters import services as character_services
    from sheets import services as sheet_services
    from systems.d6.models import Encounter
    from systems.tempo.models import Conflict
    from systems.time_to_kill.models import MissionRun
    from systems.timemaster import missions as tm_missions

    gm, gm_member = world.users["gm"], world.membership["gm"]
    timemaster = world.campaign
    hero = make_hero(timemaster, "player")
    plan = {"title": "Vienna", "parallel": "T-0", "start_year": 1805, "end_year": 1805, "agents": [hero]}
    mission = missions.create_mission(timemaster, plan)
    missions.start_mission(mission, gm)
    tm_missions.record_mistake(mission, gm, {"kind": "other", "rating": 50, "description": "noticed"})
    draft = character_services.create_draft(timemaster, world.users["player"], choices={"name": "Half Done"})
    render, _ = sheet_services.request_render(gm, "character", timemaster, gm_member, character=hero)
    base = {
        "campaigns": timemaster.pk,
        "members": world.membership["player"].pk,
        "invitations": campaign_services.create_invitation(timemaster, gm).pk,
        "missions": mission.pk,
        "tally": SignificanceEntry.objects.filter(mission=mission).first().pk,
        "rolls": rolling.record_roll(gm_member, kind="d6", count=2).pk,
        "npcs": npc_services.create_npc(timemaster, gm, {"name": "Innkeeper", "quick": True}).pk,
        "characters": hero.pk,
        "scores": hero.pk,
        "entries": hero.entries.first().pk,
        "sheets": render.pk,
        "draft": draft.pk,
        "code": "no-such-invitation",
        # a play session (by its number) and its note (issue 50)
        "play-sessions": play_sessions.start(gm_member, title="Evening").number,
        "play_sessions": 1,
    }
    base["notes"] = notes.save_note(
        Note(campaign=timemaster, play_session=timemaster.play_sessions.get(), author=gm, body="Recap")
    ).pk
    contexts = {"timemaster": base}
    for system in ("time_to_kill", "tempo", "d6"):
        campaign = play_campaign(system)
        ids = {**base, "campaigns": campaign.pk}
        ids["characters"] = ids["scores"] = campaign.characters.exclude(status="draft").first().pk
        if system == "time_to_kill":
            ids["ttk-runs"] = ids["ttk"] = MissionRun.objects.get(campaign=campaign, title="Rooftops").pk
        if system == "tempo":
            ids["conflicts"] = Conflict.objects.get(campaign=campaign, title="The checkpoint").pk
        if system == "d6":
            encounter = Encounter.objects.get(campaign=campaign, name="Warehouse")
            ids["d6-encounters"] = ids["encounters"] = encounter.pk
            ids["participants"] = encounter.participants.first().pk
        contexts[system] = ids
    return contexts


def context_for(path: str, contexts: dict) -> dict:
    """The campaign whose system the route is about (a TIMEMASTER one unless it names another)."""
    for words, system in (
        (("ttk",), "time_to_kill"),
        (("tempo", "conflicts"), "tempo"),
        (("encounters",), "d6"),
    ):
        if any(word in path for word in words):
            return contexts[system]
    return contexts["timemaster"]


PARAM = re.compile(r"\{(\w+)\}|<(?:\w+:)?(\w+)>")


def fill(path: str, ids: dict) -> str:
    """Each {param} / <conv:param> replaced by the row of the path segment before it."""

    def replace(match):
        name = match.group(1) or match.group(2)
        before = path[: match.start()].rstrip("/").rsplit("/", 1)[-1]
        if name == "step":
            return "identity"
        if name == "code":
            return ids["code"]
        if before == "characters" and "build" in path:
            return str(ids["draft"])
        return str(ids.get(before, ids["campaigns"]))

    return PARAM.sub(replace, path)


COUNT_SQL: list[str] = []


def row_counts() -> tuple:
    """Every Dossier table's row count, in one query."""
    if not COUNT_SQL:
        tables = [m._meta.db_table for m in find_bad_text.project_models()]
        quote = connection.ops.quote_name
        COUNT_SQL.append("SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {quote(t)})" for t in tables))
    with connection.cursor() as cursor:
        cursor.execute(COUNT_SQL[0])
        return tuple(cursor.fetchone())


def stored_refused_values() -> list[str]:
    from kernel import input_boundary

    limit = input_boundary.limits(items=None)
    found = []
    for model in find_bad_text.project_models():
        fields = find_bad_text.checked_fields(model)
        for pk, *values in find_bad_text.stored_rows(model, fields) if fields else ():
            for field, raw in zip(fields, values, strict=True):
                problem, _ = find_bad_text.problem_of(field, raw, limit)
                if problem:
                    found.append(f"{model._meta.label} pk={pk} {field.name}: {problem.message[:80]}")
    return found


def attempt(client, method: str, url: str, label: str, problems: list[str], **kwargs) -> int:
    """One request in a rolled-back savepoint; a problem if it 5xx's or stores anything refused."""
    with transaction.atomic():
        before = row_counts()
        response = getattr(client, method)(url, **kwargs)
        status = response.status_code
        if status >= 500:
            problems.append(f"{label}: {status}")
        elif 400 <= status < 500 and row_counts() != before:
            problems.append(f"{label}: refused with {status} but rows were added or removed")
        elif status < 400:
            stored = stored_refused_values()
            if stored:
                problems.append(f"{label}: {status} and stored {stored[:3]}")
        transaction.set_rollback(True)
    return status


def writable_operations():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method not in WRITES:
                continue
            content = operation.get("requestBody", {}).get("content", {})
            body = content.get("application/json", {}).get("schema", {})
            if "$ref" in body:
                body = components[body["$ref"].rsplit("/", 1)[-1]]
            yield path, method, sorted(body.get("properties", {})) or ["x"]


@pytest.mark.slow
def test_every_writable_api_operation_refuses_every_hostile_value(arena, api, world):
    client = api(world.users["gm"])
    client.raise_request_exception = False  # a 500 is a problem to list, not an exception
    problems: list[str] = []
    refused_by_boundary = set()
    operations = list(writable_operations())
    assert len(operations) >= 30, "the schema lists the API's write operations"
    for path, method, fields in operations:
        url = fill(path, context_for(path, arena))
        for name, hostile in HOSTILE_JSON.items():
            for field in fields:
                text = f'{{"{field}": {hostile}}}'
                label = f"{method.upper()} {path} {field}={name}"
                kwargs = {"data": text, "content_type": "application/json"}
                status = attempt(client, method, url, label, problems, **kwargs)
                if status == 400:
                    refused_by_boundary.add((path, method))
            # The hostile value as the whole body, too.
            label = f"{method.upper()} {path} body={name}"
            attempt(client, method, url, label, problems, data=hostile, content_type="application/json")
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems[:40])
    # Most operations were reached (not stopped by a 404 for want of a real id).
    assert len(refused_by_boundary) >= 0.8 * len(operations), sorted(
        set((p, m) for p, m, _ in operations) - refused_by_boundary
    )


def html_routes(resolver=None, prefix=""):
    for pattern in (resolver or get_resolver()).url_patterns:
        route = prefix + str(pattern.pattern)
        if route.startswith(("api/", "admin/", "^api", "^admin")):
            continue
        if isinstance(pattern, URLResolver):
            yield from html_routes(pattern, route)
        elif isinstance(pattern, URLPattern):
            yield "/" + route


FIELD_NAME = re.compile(r'<(?:input|select|textarea)[^>]*\bname="([^"]+)"')


@pytest.mark.slow
def test_every_html_route_refuses_every_hostile_form_and_query_value(arena, client, world):
    client.force_login(world.users["gm"])
    client.raise_request_exception = False
    problems: list[str] = []
    routes = list(html_routes())
    assert len(routes) >= 60, "the URL conf lists the pages"
    named = 0
    for route in routes:
        url = fill(route, context_for(route, arena))
        page = client.get(url)
        text = b"".join(page.streaming_content) if page.streaming else page.content  # the live feed
        fields = (
            sorted(set(FIELD_NAME.findall(text.decode(errors="replace")))) if page.status_code == 200 else []
        )
        fields = [f for f in fields if f != "csrfmiddlewaretoken"] or ["name"]
        for hostile_name, (field_name, value) in HOSTILE_FORM.items():
            names = [field_name] if field_name else fields[:1] if len(value) > 1000 else fields
            body = urlencode({name: value for name in names})
            label = f"POST {route} {hostile_name}"
            status = attempt(client, "post", url, label, problems, data=body, content_type=FORM)
            if status != 400:
                problems.append(f"{label}: {status}, not refused")
            query = f"{url}?{urlencode({field_name or fields[0]: value})}"
            if attempt(client, "get", query, f"GET {route} ?{hostile_name}", problems) != 400:
                problems.append(f"GET {route} ?{hostile_name}: not refused")
        named += 1
    assert named == len(routes)
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems[:40])


def test_a_refused_form_names_its_field(arena, client, world):
    client.force_login(world.users["gm"])
    url = f"/campaigns/{world.campaign.pk}/npcs/"
    response = client.post(url, urlencode({"name": "Guard", "gm_notes": "a\x00b"}), content_type=FORM)
    assert response.status_code == 400
    assert "“gm_notes”" in response.content.decode() and "Nothing was saved" in response.content.decode()
    htmx = client.post(url, urlencode({"name": "a\x07"}), content_type=FORM, headers={"HX-Request": "true"})
    assert htmx.status_code == 400 and 'role="alert"' in htmx.content.decode()
