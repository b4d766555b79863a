"""A player's pages cost the same in a campaign of many years as on its first evening (issue 43).

A player's view is the GM's less what the player may not see, and that filter is where the cost
grew: the live cursor drawn into every campaign page looked for the newest event the player may see
among "the events whose roll is in <every roll of the campaign the player sees>", which SQLite
planned as a LIST SUBQUERY building a list of all those rolls' ids on each page view. These tests read
the plan SQLite makes for every query of the player's campaign page, dice page, live feed catch-up,
history page and history API in a campaign of 20,000 rolls (and an agent of 1,000 ledger entries),
before and after ANALYZE: none scans the rolls, the live events or the ledger, none searches them by
the campaign alone with nothing to stop it, and none builds a list of them; the pages run as many
queries at 20,000 rolls as at 60, and SQLite's work for them (its virtual machine's instructions, the
same count on any machine) is at most WORK_GROWTH times that at 60. bench/scale.py gives the times
(docs/performance.md); a test asserts no time.
"""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection

from campaigns.models import LiveEvent, Roll
from characters import services as character_services
from characters.models import AdvancementEntry
from tests.characters.conftest import agent_choices

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        connection.vendor != "sqlite",
        reason="reads SQLite's EXPLAIN QUERY PLAN; PostgreSQL's plans at 200,000 rolls are in "
        "docs/performance.md (bench/explain.py)",
    ),
]

#: The tables that grow with a campaign's age: no query of a player's page may read them whole.
GROWING = ("campaigns_roll", "campaigns_liveevent", "characters_advancemententry")
CATCH_UP = 50  # the live feed's client is this many events behind
#: SQLite's work for a page at 20,000 rolls (and 1,000 ledger entries) against 60: at most this many
#: times (the pages show the same rows; one query reading the rolls whole would be ~300 times).
WORK_GROWTH = 1.5
STEPS = 10


def _roll_log(world, count: int) -> None:
    """``count`` rolls with their live events, as the services write them (bulk: the plans, not the
    services, are under test); one in 50 secret, half of those unannounced."""
    rng = random.Random(43)
    made = Roll.objects.bulk_create(
        (
            Roll(
                campaign=world.campaign,
                roller=world.users["player" if i % 3 else "gm"],
                kind="d10",
                count=1,
                faces=[face := rng.randint(1, 10)],
                kept=[face],
                total=face,
                purpose=f"roll {i}",
                secret=i % 50 == 0,
                announced=i % 100 != 0,
            )
            for i in range(count)
        ),
        batch_size=2000,
    )
    LiveEvent.objects.bulk_create(
        (LiveEvent(campaign=world.campaign, kind=LiveEvent.Kind.ROLL, roll=roll) for roll in made),
        batch_size=2000,
    )


def _ledger(agent, gm, count: int) -> None:
    start = agent.entries.count()
    AdvancementEntry.objects.bulk_create(
        AdvancementEntry(
            character=agent,
            kind="sp_awarded",
            payload={"type": "bonus", "amount": 10, "session": f"session-{start + i}"},
            recorded_by=gm,
            revision_after=agent.revision + start + i + 1,
        )
        for i in range(count)
    )


def _player_pages(world, agent) -> dict[str, str]:
    campaign = world.campaign.pk
    behind = list(
        LiveEvent.objects.filter(campaign=world.campaign)
        .order_by("-id")
        .values_list("public_id", flat=True)[:CATCH_UP]
    )[-1]
    return {
        "campaign page": f"/campaigns/{campaign}/",
        "dice page": f"/campaigns/{campaign}/dice/",
        "live feed catch-up": f"/campaigns/{campaign}/live/?after={behind}",
        "history page": f"/characters/{agent.pk}/history/",
        "history API": f"/api/v1/campaigns/{campaign}/characters/{agent.pk}/history/",
    }


def _get(client, path: str):
    response = client.get(path, HTTP_ACCEPT="application/json" if path.startswith("/api/") else "*/*")
    assert response.status_code == 200, (path, response.status_code)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return body.decode()


def _statements(client, path: str) -> list[tuple[str, tuple]]:
    """Every statement the request runs, with its parameters (as bound, not written into the text)."""
    ran = []

    def record(execute, sql, params, many, context):
        ran.append((sql, params))
        return execute(sql, params, many, context)

    _get(client, path)  # warm: sessions, content types
    with connection.execute_wrapper(record):
        _get(client, path)
    return ran


def _work(client, path: str) -> int:
    """SQLite's work for the request: the virtual machine's instructions its queries ran (sqlite3's
    progress handler, called every STEPS instructions of a statement's step). The same on any
    machine for the same data and plans, and it grows with the rows a query reads, by an index or
    not (a SEARCH by the campaign alone, with no LIMIT to stop it, reads every roll of the campaign)."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0  # go on

    _get(client, path)  # warm
    raw = connection.connection
    raw.set_progress_handler(count, STEPS)
    try:
        _get(client, path)
    finally:
        raw.set_progress_handler(None, STEPS)
    return steps * STEPS


def _statement_work(sql: str, params) -> int:
    """SQLite's work for one statement, run again by itself (what a failure names)."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    raw = connection.connection
    raw.set_progress_handler(count, STEPS)
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            cursor.fetchall()
    finally:
        raw.set_progress_handler(None, STEPS)
    return steps * STEPS


def _plan_problems(sql: str, params) -> list[str]:
    """What the plan of one statement reads whole: a SCAN of a growing table, a SEARCH of one by the
    campaign (or character) alone with nothing to stop it, or a LIST SUBQUERY built from one (the
    list of every roll's id that issue 43 found)."""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        rows = cursor.fetchall()
    # Django names a subquery's tables U0, U1 ... and a table joined twice T3 ...: back to the table.
    aliases = {alias: table for table, alias in re.findall(r'"(\w+)" (U\d+|T\d+)\b', sql)}

    def table_of(detail: str) -> str | None:
        match = re.match(r"(?:SCAN|SEARCH) (\w+)", detail)
        if match is None:
            return None
        name = match.group(1)
        return aliases.get(name, name)

    children: dict[int, list[tuple[int, str]]] = {}
    for node, parent, _, detail in rows:
        children.setdefault(parent, []).append((node, detail))

    def below(node: int):
        for child, detail in children.get(node, []):
            yield detail
            yield from below(child)

    # A walk down an index by the campaign (or character) alone reads all of its rows, unless a LIMIT
    # stops it early; it cannot when the rows are sorted (a TEMP B-TREE) before the LIMIT.
    stops_early = re.search(r"\bLIMIT\b", sql) and not any("TEMP B-TREE" in row[3] for row in rows)
    problems = []
    for node, _, _, detail in rows:
        if detail.startswith("SCAN ") and table_of(detail) in GROWING:
            problems.append(detail)
        by_owner = re.search(r"\((campaign_id|character_id)=\?\)$", detail)
        if detail.startswith("SEARCH ") and table_of(detail) in GROWING and by_owner and not stops_early:
            problems.append(f"{detail} with no LIMIT to stop it")
        if "LIST SUBQUERY" in detail:
            read = [d for d in below(node) if table_of(d) in GROWING]
            if read:
                problems.append(f"{detail} over {read}")
    return problems


@pytest.fixture
def own_agent(world):
    """The player's finalized agent, its ledger empty (the tests give it one)."""
    return character_services.finalize(
        character_services.create_draft(
            world.campaign, world.users["player"], choices=agent_choices(name="Old Hand")
        ),
        is_gm=True,
        rng=random.Random(3),
    )


def test_a_players_pages_read_no_growing_table_whole_and_run_the_same_queries_at_20000_rolls(
    world, client, own_agent
):
    agent = own_agent
    client.force_login(world.users["player"])
    # 60 rolls and ledger entries: every list on these pages full (50 a page) and one more.
    _roll_log(world, 60)
    _ledger(agent, world.users["gm"], 60)
    small = {
        name: (len(_statements(client, path)), _work(client, path))
        for name, path in _player_pages(world, agent).items()
    }

    _roll_log(world, 20_000 - 60)
    _ledger(agent, world.users["gm"], 1_000 - 60)
    pages = _player_pages(world, agent)
    for planner in ("no statistics", "after ANALYZE"):
        if planner == "after ANALYZE":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        for name, path in pages.items():
            queries, work = small[name]
            statements = _statements(client, path)
            assert len(statements) == queries, (name, planner)
            problems = [(sql, p) for sql, params in statements for p in _plan_problems(sql, params)]
            assert not problems, (name, planner, problems)
            # 333 times the rolls: a query that read them all would multiply the work as much
            grown = _work(client, path)
            heaviest = max(statements, key=lambda statement: _statement_work(*statement))
            assert grown <= WORK_GROWTH * work, (name, planner, work, grown, heaviest)


def test_the_live_cursor_of_a_players_page_is_the_newest_event_they_may_see(world, client, own_agent):
    """The rewritten filter names the same event: past a hidden roll's event to the one before."""
    client.force_login(world.users["player"])
    _roll_log(world, 120)  # the last roll made (i = 0 .. 119) is open; make the newest one hidden
    hidden = Roll.objects.create(
        campaign=world.campaign, kind="d10", faces=[4], kept=[4], total=4, secret=True, announced=False
    )
    LiveEvent.objects.create(campaign=world.campaign, kind=LiveEvent.Kind.ROLL, roll=hidden)
    newest_seen = (
        LiveEvent.objects.filter(campaign=world.campaign, roll__secret=False).order_by("-id").first()
    )
    page = _get(client, f"/campaigns/{world.campaign.pk}/")
    assert f"?after={newest_seen.public_id}" in page
    client.force_login(world.users["gm"])
    newest = LiveEvent.objects.filter(campaign=world.campaign).order_by("-id").first()
    assert f"?after={newest.public_id}" in _get(client, f"/campaigns/{world.campaign.pk}/")


def test_the_reader_of_plans_catches_what_issue_43_found(world):
    """The old live cursor's list of every visible roll, and the old catch-up's read of a batch's rolls
    in the log's order (down the log's index through every roll of the campaign)."""
    _roll_log(world, 200)
    rolls = Roll.objects.filter(campaign=world.campaign, secret=False).values("pk")
    old = LiveEvent.objects.filter(campaign=world.campaign, roll__in=rolls).order_by("-id")
    sql, params = old.values("public_id")[:1].query.sql_with_params()
    assert any("LIST SUBQUERY" in problem for problem in _plan_problems(sql, params))
    batch = list(rolls[:5].values_list("pk", flat=True))
    sql, params = Roll.objects.filter(campaign=world.campaign, pk__in=batch).query.sql_with_params()
    assert any("no LIMIT to stop it" in problem for problem in _plan_problems(sql, params))
