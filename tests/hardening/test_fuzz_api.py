"""Schemathesis fuzzes every operation of /api/schema/ as each persona.

For every generated request (valid and invalid data, random and real path ids) the answer must:
- never be a 5xx;
- match the schema when its status is documented, and have a documented content type;
- use the one error format of kernel/api.py when it is a 4xx;
- never show a non-GM anything GM-only: a secret roll's purpose or an invitation code;
- never tell a non-member that the campaign exists (404 whatever the request).

The schema is loaded from the running app (``from_wsgi``), so endpoints added later are fuzzed
too. Examples per operation: HARDENING_FUZZ_EXAMPLES (default: 20 under the "ci" hypothesis profile,
5 under "dev", see conftest.py); generation is derandomized so
CI is stable, set HARDENING_FUZZ_RANDOM=1 to explore new inputs locally.
"""

from __future__ import annotations

import copy
import json
import os
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from campaigns.table import rolling
from tests.profiles import FUZZ_EXAMPLES

EXAMPLES = int(os.environ.get("HARDENING_FUZZ_EXAMPLES") or FUZZ_EXAMPLES)
DERANDOMIZE = os.environ.get("HARDENING_FUZZ_RANDOM", "") != "1"
PERSONAS = ["gm", "player", "observer", "outsider", "anonymous"]
SECRET_PURPOSE = "gm-only-marker-7f3a9c"
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture
def planted(world):
    """The world plus GM-only data that no other persona may ever be shown."""
    from knox.models import AuthToken

    from campaigns import services
    from campaigns.models import Mission

    gm = world.membership["gm"]
    mission = Mission.objects.create(campaign=world.campaign, title="Operation Sundial")
    world.secret_roll = rolling.record_roll(gm, kind="d1000", secret=True, purpose=SECRET_PURPOSE)
    world.open_roll = rolling.record_roll(world.membership["player"], kind="d6", count=2, mission=mission)
    world.invitation = services.create_invitation(world.campaign, world.users["gm"])
    world.tokens = {name: AuthToken.objects.create(user=user)[1] for name, user in world.users.items()}
    world.gm_only = [SECRET_PURPOSE, world.invitation.code]
    # Real ids, so generated requests reach real rows and not only 404s.
    world.known_ids = sorted(
        {
            world.campaign.pk,
            world.elsewhere.pk,
            mission.pk,
            world.secret_roll.pk,
            world.open_roll.pk,
            world.invitation.pk,
            *(m.pk for m in world.membership.values()),
        }
    )
    return world


@pytest.fixture
def api_schema(db):
    """The schema, served by the WSGI app that the generated requests then go to.

    Like Django's test client, keep the request signals from closing the test's connection
    (on PostgreSQL, close_old_connections would drop it mid-transaction).
    """
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from config.wsgi import application

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield _schema(application)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


SCHEMA_PATH = "/api/schema/?format=json"
#: The document /api/schema/ served the first time in this process: the routes and serializers it
#: is made from do not change while the process runs, and drf-spectacular takes ~0.5 s to make it.
#: Each test still loads its own schemathesis schema from it, as from the app (docs/testing.md).
_SERVED: list[dict] = []


def _schema(application):
    if not _SERVED:
        loaded = schemathesis.openapi.from_wsgi(SCHEMA_PATH, application)
        _SERVED.append(copy.deepcopy(loaded.raw_schema))
        return loaded
    loaded = schemathesis.openapi.from_dict(copy.deepcopy(_SERVED[0]))
    loaded.app, loaded.location = application, SCHEMA_PATH
    return loaded


def _strategy(operation, world):
    """Generated cases: free path ids, or the campaign's real ids; valid and invalid data."""
    names = [p.name for p in operation.path_parameters]
    modes = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
    free = [operation.as_strategy(generation_mode=mode) for mode in modes]
    if not names:
        return st.one_of(free)
    campaign_ids = [world.campaign.pk, world.elsewhere.pk]
    real = st.fixed_dictionaries(
        {
            name: st.sampled_from(campaign_ids if name in ("campaign_pk",) else world.known_ids)
            for name in names
        }
    ).flatmap(lambda params: operation.as_strategy(path_parameters={k: str(v) for k, v in params.items()}))
    return st.one_of([*free, real, real])


def _error_format_problem(response) -> str | None:
    if not 400 <= response.status_code < 500:
        return None
    try:
        body = json.loads(response.content)
    except ValueError:
        return f"a {response.status_code} whose body is not JSON"
    if not isinstance(body, dict) or set(body) != {"status", "detail", "errors"}:
        return f"a {response.status_code} not in the error format: {str(body)[:200]}"
    if body["status"] != response.status_code or not isinstance(body["errors"], list):
        return f"a {response.status_code} with a wrong status or errors list: {str(body)[:200]}"
    return None


def _existence_leak(case, response, world, persona) -> str | None:
    """A non-member learns nothing about the campaign: 404 (or 401 when anonymous), whatever the body."""
    if persona not in ("outsider", "anonymous") or not case.operation.path.startswith("/api/v1/campaigns/{"):
        return None
    params = case.path_parameters or {}
    campaign_id = params.get("campaign_pk", params.get("id"))
    expected = 401 if persona == "anonymous" else 404
    if str(campaign_id) == str(world.campaign.pk) and response.status_code != expected:
        return f"{persona} got {response.status_code} (not {expected}) for a campaign it is not in"
    return None


def _fuzz_operation(operation, world, persona, statuses: Counter) -> list[str]:
    headers = {} if persona == "anonymous" else {"Authorization": f"Token {world.tokens[persona]}"}
    problems: list[str] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=DERANDOMIZE,
        database=None,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )
    @given(case=_strategy(operation, world))
    def run(case):
        response = case.call(headers=headers)
        statuses[response.status_code // 100] += 1
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except FailureGroup as failure:  # keep the text for the report, let hypothesis shrink it
            problems.append(f"{operation.label}: {str(failure)[:1500]}")
            raise
        problem = _error_format_problem(response) or _existence_leak(case, response, world, persona)
        if problem is None and persona != "gm":
            leaked = [value for value in world.gm_only if value in response.text]
            if leaked:
                problem = f"GM-only data {leaked} shown to {persona}: {response.text[:300]}"
        if problem:
            problems.append(f"{operation.label}: {problem}\n    {case.as_curl_command(headers=headers)}")
            raise AssertionError(problem)

    try:
        run()
    except (Exception, FailureGroup):  # hypothesis re-raises the shrunk failure; problems keeps it
        if not problems:
            raise
    return problems[-1:]


@pytest.mark.slow
@pytest.mark.fuzz
@pytest.mark.parametrize("persona", PERSONAS)
def test_no_generated_request_gets_a_5xx_a_schema_mismatch_or_gm_data(api_schema, planted, persona):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15, "the schema lists the API's operations"
    problems: list[str] = []
    statuses: Counter = Counter()
    for operation in operations:
        problems.extend(_fuzz_operation(operation, planted, persona, statuses))
    assert not problems, f"{len(problems)} operation(s) failed as {persona}:\n\n" + "\n\n".join(problems)
    # The fuzzing reached past authentication (and, anonymous, never did): not only 401s and 404s.
    if persona == "anonymous":
        assert statuses[2] == 0, statuses
    else:
        # three successes per four operations at the "ci" profile's 20 requests per operation; the
        # same share of successful requests when fewer are sent ("dev", tests/profiles.py)
        assert statuses[2] >= 3 * len(operations) * EXAMPLES // (4 * 20), statuses
