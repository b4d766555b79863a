"""The Content-Security-Policy in a real browser: a script that got into a page does not run (escaped
where it came in as user text, blocked by the CSP where it reached the HTML), and the API docs
still work under their own policy. The journeys in the other files run under the same CSP, and
tests/e2e/conftest.py fails any of them on a CSP violation the browser reports."""

from __future__ import annotations

from playwright.sync_api import expect

PASSWORD = "zebra-lantern-93"
HOSTILE_NAME = '<script>window.__pwned = "name"</script><img src=x onerror="window.__pwned = \'img\'">'


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def make_user(username):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def test_a_script_in_user_text_is_shown_as_text_and_never_runs(new_page, transactional_db):
    make_user("gm")
    page = new_page()
    log_in(page, "gm")
    page.get_by_role("link", name="New campaign").click()
    page.get_by_label("Campaign name").fill(HOSTILE_NAME)
    page.get_by_label("Game system").select_option(label="TIMEMASTER")
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(HOSTILE_NAME)  # escaped: plain text
    assert page.evaluate("() => window.__pwned") is None


def test_the_csp_blocks_a_script_that_reached_the_html(new_page, transactional_db):
    """As if escaping had failed: the server's page, with its own headers, gets an inline script
    and an event-handler attribute added on the way to the browser. Neither runs."""
    make_user("gm")
    page = new_page()
    log_in(page, "gm")

    policies = []

    def inject(route):
        response = route.fetch()
        policies.append(response.headers.get("content-security-policy", ""))
        html = response.text().replace(
            "<main",
            '<script>window.__pwned = "inline"</script><img src="/x" onerror="window.__pwned = 1"><main',
            1,
        )
        route.fulfill(response=response, body=html)

    page.route("**/campaigns/", inject)
    seen = []
    page.expose_function("reportViolation", lambda directive: seen.append(directive))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation',"
        " event => window.reportViolation(event.effectiveDirective))"
    )
    page.goto("/campaigns/")
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    page.wait_for_function("() => document.querySelector('img[src=\"/x\"]').complete")
    assert page.evaluate("() => window.__pwned") is None
    assert "script-src 'self'" in policies[0]
    assert "script-src-elem" in seen and "script-src-attr" in seen, seen
    # Our own scripts still run under the CSP: htmx is loaded.
    assert page.evaluate("() => typeof window.htmx") == "object"
    assert any("Content Security Policy" in v for v in new_page.csp_violations)
    new_page.csp_violations.clear()  # provoked on purpose


def test_the_api_docs_and_the_browsable_api_work_under_their_policy(new_page, transactional_db):
    make_user("reader")
    page = new_page()
    log_in(page, "reader")
    page.goto("/api/docs/")
    # Swagger UI draws the heading once the schema (the whole API, built on request) has come: a
    # second or two alone, over five under a loaded machine's full browser suite.
    expect(page.get_by_role("heading", name="Dossier API")).to_be_visible(timeout=20_000)
    expect(page.get_by_text("/api/v1/auth/tokens/", exact=True).first).to_be_visible()
    # DRF's browsable pages too (their inline styles allowed, their scripts from static files).
    page.goto("/api/v1/me/?format=api")
    expect(page.get_by_role("heading", name="Me")).to_be_visible()
    expect(page.locator(".response-info")).to_contain_text('"username": "reader"')


def test_a_poll_waits_while_someone_is_in_a_form_of_the_panel(new_page, transactional_db, monkeypatch):
    """The pause that used to be an evaluated hx-trigger filter now lives in static/js/app.js."""
    from campaigns import services as campaign_services
    from campaigns.models import Membership, Role
    from systems.d6 import services, views
    from systems.d6.tests.encounters.conftest import character_choices, make_character

    monkeypatch.setattr(views, "POLL_SECONDS", 1)
    gm_user, player = make_user("gm"), make_user("player")
    campaign = campaign_services.create_campaign(gm_user, name="Night Run", system="d6")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    ada = make_character(campaign, player, character_choices("Ada", "4D", "3D+1"))
    encounter = services.create_encounter(campaign, gm_user, name="Dockside", method="once_per_scene")
    services.add_character(encounter, ada.pk)
    services.start_encounter(encounter)

    page = new_page()
    log_in(page, "gm")
    polls = []
    page.on("request", lambda request: polls.append(request.url) if request.url.endswith("/panel/") else None)
    with page.expect_request(lambda request: request.url.endswith("/panel/")):
        page.goto(f"/campaigns/{campaign.pk}/encounters/{encounter.pk}/")
    page.get_by_role("button", name="Begin round 1").focus()
    polls.clear()
    page.wait_for_timeout(3000)  # three poll periods
    assert polls == []
    with page.expect_request(lambda request: request.url.endswith("/panel/")):
        page.evaluate("() => document.activeElement.blur()")


ADD_CONFIRMED_FORM = """() => {
    const form = document.createElement("form");
    form.method = "get";
    form.action = "/accounts/tokens/";
    form.dataset.confirm = "Abandon this mission?";
    form.innerHTML = "<button type=submit>Go</button>";
    document.querySelector("main").append(form);
}"""


def test_a_form_with_data_confirm_asks_before_it_is_sent(new_page, transactional_db):
    """What the Time to Kill GM panel's "Abandon the mission" form uses instead of onsubmit."""
    make_user("gm")
    page = new_page()
    log_in(page, "gm")
    page.evaluate(ADD_CONFIRMED_FORM)
    page.get_by_role("button", name="Go").click()
    dialog = page.get_by_role("dialog")  # app.js's <dialog>, no window.confirm
    expect(dialog).to_contain_text("Abandon this mission?")
    dialog.get_by_role("button", name="Cancel").click()
    assert page.url.endswith("/campaigns/")  # declined: the form was not sent
    expect(page.get_by_role("button", name="Go")).to_be_visible()
    page.get_by_role("button", name="Go").click()
    dialog.get_by_role("button", name="Yes").click()
    expect(page.get_by_role("heading", name="API tokens")).to_be_visible()
    assert "confirm=1" in page.url  # what the server's confirm step wants
