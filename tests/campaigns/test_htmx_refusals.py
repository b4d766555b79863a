"""A refusal answered to a live panel (htmx) is a marked fragment with a 4xx status, not a page."""

from __future__ import annotations


def test_a_refused_htmx_request_gets_the_message_alone_with_its_status(world, client):
    client.force_login(world.users["observer"])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/dice/", {"kind": "d6", "count": 1}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403
    assert response["X-Dossier-Refusal"] == "1"
    html = response.content.decode()
    assert "data-refusal-message" in html and "<html" not in html and "<header" not in html


def test_the_same_refusal_without_htmx_is_the_whole_error_page(world, client):
    client.force_login(world.users["observer"])
    response = client.post(f"/campaigns/{world.campaign.pk}/dice/", {"kind": "d6", "count": 1})
    assert response.status_code == 403
    assert "X-Dossier-Refusal" not in response
    assert "<html" in response.content.decode()


def test_an_htmx_request_for_something_gone_gets_a_404_fragment(world, client):
    client.force_login(world.users["player"])
    response = client.get(f"/campaigns/{world.campaign.pk}/npcs/999999/", HTTP_HX_REQUEST="true")
    assert response.status_code == 404 and response["X-Dossier-Refusal"] == "1"
