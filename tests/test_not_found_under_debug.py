"""Under `make run` (DEBUG on) a page that is not there is the product's "Not found" page, as in
production, not Django's technical 404 with the site's URL patterns (issue 44, the new-user walk's
point 15: a refused URL looked like a crash). TECHNICAL_404=1 brings Django's page back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

PRODUCT = "There is nothing here, or you do not have access to it."
TECHNICAL = "Using the URLconf defined in"


@pytest.fixture
def debug(settings):
    settings.DEBUG = True
    settings.TECHNICAL_404 = False
    return settings


def test_make_run_serves_with_debug_on():
    """The premise: `make run` sets DEBUG=1 (the Makefile's DEV_ENV), so Django would show its page."""
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    assert re.search(r"^DEV_ENV := DEBUG=\$\$\{DEBUG:-1\}", makefile, re.M)
    assert re.search(r"^run: .*\n(\t.*\n)*\t\$\(DEV_ENV\) bash scripts/run.sh", makefile, re.M)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "member"])
def test_an_unknown_address_is_the_products_page(debug, world, who):
    client = Client()
    if who == "member":
        client.force_login(world.users["player"])
    response = client.get("/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert PRODUCT in page and TECHNICAL not in page and "<h1>" in page
    if who == "member":
        assert "Log out player" in page  # the product's own frame, logged in


@pytest.mark.django_db
def test_a_record_that_is_not_there_is_the_products_page(debug, world):
    client = Client()
    client.force_login(world.users["player"])
    response = client.get("/campaigns/999999/")
    assert response.status_code == 404
    page = response.content.decode()
    assert PRODUCT in page and "Http404" not in page and "Traceback" not in page


@pytest.mark.django_db
@pytest.mark.parametrize("position", ["abc", "1", "-5"])
def test_a_refused_page_position_is_the_products_400_page(debug, world, position):
    """Stop 57's walk: a session page's ``?rolls_after=abc`` showed Django's technical page (the
    traceback, local variables, the server's paths) to a player under `make run`."""
    from campaigns.chronicle import play_sessions

    play_sessions.start(world.membership["gm"])
    client = Client()
    client.force_login(world.users["player"])
    response = client.get(f"/campaigns/{world.campaign.pk}/play-sessions/1/?rolls_after={position}")
    page = response.content.decode()
    assert response.status_code == 400
    assert "rolls_after" in page and "Traceback" not in page and "Request Method" not in page
    assert "Log out player" in page  # the product's own frame


@pytest.mark.django_db
def test_the_api_answers_its_json_error(debug):
    response = Client().get("/api/v1/no-such-endpoint/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json()["detail"] == "Not found"


@pytest.mark.django_db
def test_a_developer_can_ask_for_djangos_page(debug):
    debug.TECHNICAL_404 = True
    response = Client().get("/no-such-page/")
    assert response.status_code == 404 and TECHNICAL in response.content.decode()


@pytest.mark.django_db
def test_without_debug_the_handler_answers_as_before(settings):
    settings.DEBUG = False
    response = Client().get("/no-such-page/")
    assert response.status_code == 404 and PRODUCT in response.content.decode()
