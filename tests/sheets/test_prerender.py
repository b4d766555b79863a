"""Background render of a character's sheet when its revision changes (sheets/prerender.py)."""

from __future__ import annotations

import pytest

from sheets import prerender, services
from sheets.models import RenderStatus, SheetRender
from sheets.tasks import run_render

AWARD = {"kind": "sp_awarded", "type": "bonus", "session": 1, "amount": 10}


@pytest.fixture
def scheduled(monkeypatch):
    """The jobs the hook schedules, instead of sending them to a broker."""
    jobs = []
    monkeypatch.setattr(
        prerender.prerender_character, "apply_async", lambda args, countdown: jobs.append((args, countdown))
    )
    return jobs


@pytest.fixture
def sent(monkeypatch):
    from sheets import tasks

    renders = []
    monkeypatch.setattr(tasks.render_sheet, "delay", lambda render_id: renders.append(render_id))
    return renders


def edit(world, character, django_capture_on_commit_callbacks):
    from characters import services as character_services

    with django_capture_on_commit_callbacks(execute=True):
        character_services.append_entry(character, AWARD, world.users["gm"])
    character.refresh_from_db()


def test_a_new_revision_schedules_one_debounced_job(
    world, party, scheduled, settings, django_capture_on_commit_callbacks
):
    settings.SHEET_PRERENDER_DEBOUNCE_SECONDS = 2.0
    agent = party["player"]
    edit(world, agent, django_capture_on_commit_callbacks)
    assert scheduled == [((agent.pk, agent.revision), 2.0)]


def test_the_job_asks_for_both_papers_and_the_click_gets_the_stored_pdf(
    world, party, scheduled, sent, django_capture_on_commit_callbacks
):
    from campaigns.access import get_campaign_for_user

    agent = party["player"]
    edit(world, agent, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        assert prerender.run_prerender(agent.pk, agent.revision) == "requested"
    assert len(sent) == 2  # letter and A4, each through the ordinary render task
    for render_id in sent:
        assert run_render(render_id) == "done"
    assert prerender.sheet_state(agent) == "ready"
    _, membership = get_campaign_for_user(world.users["player"], world.campaign.pk)
    render, created = services.request_render(
        world.users["player"], "character", world.campaign, membership, agent, "letter"
    )
    assert not created and render.status == RenderStatus.DONE and render.revision == agent.revision
    assert prerender.run_prerender(agent.pk, agent.revision) == "present"  # a rerun adds nothing


def test_a_superseded_job_is_dropped(world, party, scheduled, sent, django_capture_on_commit_callbacks):
    agent = party["player"]
    edit(world, agent, django_capture_on_commit_callbacks)
    first = agent.revision
    edit(world, agent, django_capture_on_commit_callbacks)
    assert prerender.run_prerender(agent.pk, first) == "superseded"
    assert not SheetRender.objects.filter(revision=first).exists()


def test_one_job_per_character_at_a_time(world, party, scheduled, sent, django_capture_on_commit_callbacks):
    agent = party["player"]
    edit(world, agent, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        prerender.run_prerender(agent.pk, agent.revision)  # queued, not rendered yet
    edit(world, agent, django_capture_on_commit_callbacks)
    scheduled.clear()
    assert prerender.run_prerender(agent.pk, agent.revision) == "deferred"
    assert scheduled == [((agent.pk, agent.revision), pytest.approx(scheduled[0][1]))]
    assert not SheetRender.objects.filter(revision=agent.revision).exists()


def test_the_sheets_page_shows_the_render_state(
    world, party, client, scheduled, sent, django_capture_on_commit_callbacks
):
    agent = party["player"]
    edit(world, agent, django_capture_on_commit_callbacks)
    client.force_login(world.users["player"])
    url = f"/campaigns/{world.campaign.pk}/sheets/"
    assert f'data-testid="sheet-state-{agent.pk}"'.encode() not in client.get(url).content
    with django_capture_on_commit_callbacks(execute=True):
        prerender.run_prerender(agent.pk, agent.revision)
    assert b"sheet queued" in client.get(url).content
    for render_id in sent:
        run_render(render_id)
    assert b"sheet ready" in client.get(url).content


def test_an_edit_succeeds_when_the_broker_is_down(
    world, party, monkeypatch, django_capture_on_commit_callbacks
):
    def refuse(args, countdown):
        raise ConnectionError("broker down")

    monkeypatch.setattr(prerender.prerender_character, "apply_async", refuse)
    agent = party["player"]
    before = agent.revision
    edit(world, agent, django_capture_on_commit_callbacks)
    assert agent.revision == before + 1 and not SheetRender.objects.exists()


def test_the_character_page_shows_the_render_state(
    world, party, client, scheduled, sent, django_capture_on_commit_callbacks
):
    """Issue 20, "show the render's state on the page": the character's own page says whether its
    current revision's sheet is queued, rendering or ready, and links the PDF once it is."""
    agent = party["player"]
    edit(world, agent, django_capture_on_commit_callbacks)
    client.force_login(world.users["player"])
    url = f"/characters/{agent.pk}/"
    page = client.get(url).content
    # before the debounced job asked for it: "being prepared", asking its own box again (issue 30)
    assert b'data-status="preparing"' in page and f"/characters/{agent.pk}/sheet-box/".encode() in page
    with django_capture_on_commit_callbacks(execute=True):
        prerender.run_prerender(agent.pk, agent.revision)
    page = client.get(url).content
    assert b'data-status="queued"' in page
    assert b"hx-get=" in page  # polls until the render is finished
    for render_id in sent:
        run_render(render_id)
    page = client.get(url).content.decode()
    assert 'data-status="done"' in page and "hx-get=" not in page
    renders = SheetRender.objects.filter(character=agent, revision=agent.revision)
    render = renders.get(snapshot__paper=world.campaign.paper)  # the campaign's paper (issue 30)
    assert f"/sheets/{render.pk}/download/" in page
    # Another player sees the character but not its print state (only the owner and the GM print it).
    client.force_login(world.users["other_player"])
    other = client.get(url)
    if other.status_code == 200:
        assert b"Printable sheet" not in other.content
