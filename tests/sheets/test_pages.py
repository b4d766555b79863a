"""The print page, the progress page with its htmx fragment, and the download, per persona."""

from __future__ import annotations

import pytest

from sheets.models import SheetRender
from sheets.tasks import run_render


@pytest.fixture
def web(client):
    def login(user):
        client.force_login(user)
        return client

    return login


def test_a_player_prints_their_sheet_and_downloads_it(world, party, web):
    client = web(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/sheets/")
    assert page.status_code == 200
    assert "Harry Adams" in page.content.decode() and "Mae Lin" not in page.content.decode()
    response = client.post(
        f"/campaigns/{world.campaign.pk}/sheets/", {"kind": "character", "character": party["player"].pk}
    )
    render = SheetRender.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/sheets/{render.pk}/"
    progress = client.get(f"/sheets/{render.pk}/status/")
    # it reloads on the render's live event (issue 44), and on a slow poll should the feed be down
    assert f'hx-trigger="sse:sheet-render-{render.pk}, every ' in progress.content.decode()
    run_render(render.pk)
    done = client.get(f"/sheets/{render.pk}/status/").content.decode()
    assert "hx-trigger" not in done and f"/sheets/{render.pk}/download/" in done
    download = client.get(f"/sheets/{render.pk}/download/")
    assert download.status_code == 200 and b"".join(download.streaming_content).startswith(b"%PDF")


def test_a_player_asking_for_the_fate_record_sheet_gets_403_and_nothing_is_rendered(world, ttk_world, web):
    client = web(world.users["player"])
    assert "print-fate-record" not in client.get(f"/campaigns/{ttk_world.pk}/sheets/").content.decode()
    response = client.post(f"/campaigns/{ttk_world.pk}/sheets/", {"kind": "fate_record"})
    assert response.status_code == 403
    assert not SheetRender.objects.exists()


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 200), ("player", 200), ("other_player", 403), ("observer", 403), ("outsider", 404)],
)
def test_the_progress_and_download_pages_follow_the_api_rules(world, party, web, persona, expected):
    from tests.sheets.test_api_roles import done_render

    render = done_render(world.users["player"], "character", world.campaign, party["player"])
    client = web(world.users[persona])
    for url in (f"/sheets/{render.pk}/", f"/sheets/{render.pk}/status/", f"/sheets/{render.pk}/download/"):
        assert client.get(url).status_code == expected, url


def test_the_print_page_is_for_members_only(world, web, client):
    assert web(world.users["outsider"]).get(f"/campaigns/{world.campaign.pk}/sheets/").status_code == 404
    client.logout()
    assert client.get(f"/campaigns/{world.campaign.pk}/sheets/").status_code == 302


def test_a_bad_kind_on_the_page_is_a_message_not_an_error(world, web):
    response = web(world.users["gm"]).post(
        f"/campaigns/{world.campaign.pk}/sheets/", {"kind": "x"}, follow=True
    )
    assert response.status_code == 200 and "Choose a sheet" in response.content.decode()
