"""Right after a character is finished or changed its page says the sheet is being prepared and
updates by itself until the PDF is there, with a print button meanwhile; the copy offered is on the
campaign's paper (issue 30, findings 4 and 5)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from characters.models import Character
from sheets import prerender
from sheets.models import SheetRender
from sheets.tasks import run_render
from tests.sheets.test_prerender import edit


@pytest.fixture
def scheduled(monkeypatch):
    """The prerender jobs, kept instead of sent to a broker."""
    jobs = []
    monkeypatch.setattr(
        prerender.prerender_character, "apply_async", lambda args, countdown: jobs.append(args)
    )
    return jobs


@pytest.fixture
def sent(monkeypatch):
    from sheets import tasks

    renders = []
    monkeypatch.setattr(tasks.render_sheet, "delay", lambda render_id: renders.append(render_id))
    return renders


BOX = {"gm": 200, "player": 200, "other_player": 404, "observer": 404, "outsider": 404, "anonymous": 302}


@pytest.mark.parametrize("role", sorted(BOX))
def test_the_sheet_box_answers_each_role(world, party, client, role):
    if role != "anonymous":
        client.force_login(world.users[role])
    response = client.get(f"/characters/{party['player'].pk}/sheet-box/")
    assert response.status_code == BOX[role]


def test_the_box_says_preparing_then_ready_on_the_campaigns_paper(
    world,
    party,
    client,
    scheduled,
    sent,
    django_capture_on_commit_callbacks,
):
    world.campaign.paper = "a4"
    world.campaign.save()
    agent = party["player"]
    edit(world, agent, django_capture_on_commit_callbacks)
    client.force_login(world.users["player"])
    page = client.get(f"/characters/{agent.pk}/").content.decode()
    assert "being prepared" in page and f'hx-get="/characters/{agent.pk}/sheet-box/"' in page
    assert 'data-testid="print-sheet"' in page and '<option value="a4" selected>' in page
    # the box sits before the sheet itself: on a phone it is on the first screen
    assert page.index('id="sheet-status"') < page.index("Basic Abilities")
    with django_capture_on_commit_callbacks(execute=True):
        prerender.run_prerender(agent.pk, agent.revision)
    for render_id in sent:
        run_render(render_id)
    box = client.get(f"/characters/{agent.pk}/sheet-box/").content.decode()
    a4 = SheetRender.objects.get(character=agent, revision=agent.revision, snapshot__paper="a4")
    assert f"/sheets/{a4.pk}/download/" in box and 'data-status="done"' in box
    assert ", A4, " in box  # the ready line names the paper
    assert "hx-get" not in box  # done: no more polling


def test_long_after_a_change_with_no_render_the_box_stops_asking_and_offers_the_button(world, party, client):
    agent = party["player"]
    Character.objects.filter(pk=agent.pk).update(updated_at=timezone.now() - timedelta(minutes=10))
    client.force_login(world.users["player"])
    box = client.get(f"/characters/{agent.pk}/sheet-box/").content.decode()
    assert "hx-get" not in box and 'data-status="none"' in box and 'data-testid="print-sheet"' in box


def test_the_box_offers_both_papers_as_the_sheets_page_does(
    world, party, client, scheduled, sent, django_capture_on_commit_callbacks
):
    """Issue 44, the new-user walk's point 17: the box offered the campaign's paper alone. The
    background render makes both: the other paper's download is there too, and while a paper is not
    made yet the print button offers it."""
    world.campaign.paper = "a4"
    world.campaign.save()
    agent = party["player"]
    edit(world, agent, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        prerender.run_prerender(agent.pk, agent.revision)
    renders = {
        r.snapshot["paper"]: r for r in SheetRender.objects.filter(character=agent, revision=agent.revision)
    }
    assert set(renders) == {"a4", "letter"}
    client.force_login(world.users["player"])
    run_render(renders["a4"].pk)
    box = client.get(f"/characters/{agent.pk}/sheet-box/").content.decode()
    assert f"/sheets/{renders['a4'].pk}/download/" in box and 'data-testid="download"' in box
    form = box.split('data-testid="print-sheet"')[0].split("<form")[-1]
    assert '<option value="letter"' in form and '<option value="a4"' not in form  # only what is missing
    assert 'data-testid="download-other"' not in box
    run_render(renders["letter"].pk)
    box = client.get(f"/characters/{agent.pk}/sheet-box/").content.decode()
    assert f"/sheets/{renders['letter'].pk}/download/" in box and "Download on Letter" in box
    assert f"/sheets/{renders['a4'].pk}/download/" in box
    assert 'data-testid="print-sheet"' not in box  # both made: nothing left to print
