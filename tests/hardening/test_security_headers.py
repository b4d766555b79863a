"""Every answer carries a Content-Security-Policy, a Permissions-Policy and a Referrer-Policy; the
pages hold nothing the CSP would have to allow inline. The browser side is tests/e2e/test_csp.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {name: values for name, *values in parts}


@pytest.mark.parametrize("path", ["/accounts/login/", "/accounts/signup/", "/api/v1/systems/"])
def test_pages_and_api_answers_carry_the_security_headers(db, client, path):
    response = client.get(path)
    csp = directives(response)
    assert csp["script-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"]
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'none'"]
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]
    assert response["Referrer-Policy"] == "same-origin"


def test_the_api_docs_relax_styles_only_and_load_their_script_from_a_url(world, client):
    client.force_login(world.users["player"])
    page = client.get("/api/docs/")
    assert page.status_code == 200
    csp = directives(page)
    assert csp["script-src"] == ["'self'"]
    assert "'unsafe-inline'" in csp["style-src"]
    html = page.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script on the docs page"
    script_url = re.search(r'<script src="([^"]*script=[^"]*)"', html).group(1).replace("&amp;", "&")
    script = client.get(script_url)
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


# What a page may not hold under the CSP: inline scripts, event-handler attributes, htmx's
# evaluated attributes (hx-on, trigger filters, js: values), inline styles.
FORBIDDEN = {
    "an inline <script>": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "an on* event attribute": re.compile(r"\son[a-z]+\s*=", re.I),
    "an hx-on attribute": re.compile(r"\bhx-on", re.I),
    "an hx-trigger filter": re.compile(r'hx-trigger="[^"]*\[', re.I),
    "a js: / javascript: value": re.compile(r"""=["'](js|javascript):""", re.I),
    "a <style> element": re.compile(r"<style\b", re.I),
    "a style attribute": re.compile(r"\sstyle\s*=", re.I),
}


def web_templates():
    # The platform's templates and each system app's (systems/<system>/templates/). The sheet
    # templates under sheets/ are print documents for WeasyPrint, never served as pages.
    folders = [TEMPLATES, *sorted(ROOT.glob("systems/*/templates"))]
    return sorted(
        p for folder in folders for p in folder.rglob("*.html") if p.relative_to(folder).parts[0] != "sheets"
    )


def test_no_page_template_holds_anything_the_csp_would_block():
    found = [
        f"{path.relative_to(ROOT)}: {what}"
        for path in web_templates()
        for what, pattern in FORBIDDEN.items()
        if pattern.search(path.read_text())
    ]
    assert len(web_templates()) > 50
    assert found == []


def test_the_browsable_api_relaxes_styles_only(world, client):
    client.force_login(world.users["player"])
    page = client.get("/api/v1/campaigns/", HTTP_ACCEPT="text/html")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    csp = directives(page)
    assert csp["script-src"] == ["'self'"] and "'unsafe-inline'" in csp["style-src"]
    assert not re.search(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", page.content.decode())
    as_json = client.get("/api/v1/campaigns/", HTTP_ACCEPT="application/json")
    assert directives(as_json)["style-src"] == ["'self'"]


def _assert_same_headers(response, what):
    csp = directives(response)
    assert csp["default-src"] == ["'self'"] and csp["script-src"] == ["'self'"], what
    assert csp["frame-ancestors"] == ["'none'"] and csp["object-src"] == ["'none'"], what
    assert "camera=()" in response["Permissions-Policy"], what
    assert response["Referrer-Policy"] == "same-origin", what
    assert response["X-Content-Type-Options"] == "nosniff", what


def test_error_answers_carry_the_same_headers_as_pages(world, client, settings):
    """Issue 28, finding 7: the 404 page had no Content-Security-Policy. Every error answer of the
    web pages and the API (400, 403, 404, 429, 405) carries the same headers as a page."""
    from rest_framework.test import APIClient

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": "1/hour"}
    answers = {}
    answers["web 404"] = client.get("/no-such-page/")
    answers["web 404 of a campaign"] = client.get("/campaigns/999999/", follow=False)
    client.force_login(world.users["outsider"])
    answers["web 404 for a non-member"] = client.get(f"/campaigns/{world.campaign.pk}/")
    client.force_login(world.users["observer"])
    answers["web 403"] = client.post(f"/campaigns/{world.campaign.pk}/dice/", {"kind": "d6"})
    answers["web 400"] = client.get(f"/campaigns/{world.campaign.pk}/dice/log/", {"mission": "x" * 5000})
    client.logout()
    answers["web 405"] = client.put("/accounts/login/")
    form = {"username": "new1", "password1": "a-fine-long-pass-77", "password2": "a-fine-long-pass-77"}
    client.post("/accounts/signup/", form, REMOTE_ADDR="10.9.9.9")
    client.logout()
    answers["web 429"] = client.post(
        "/accounts/signup/", {**form, "username": "new2"}, REMOTE_ADDR="10.9.9.9"
    )
    api = APIClient()
    answers["api 401"] = api.get("/api/v1/campaigns/")
    answers["api 404"] = api.get("/api/v1/no-such-thing/")
    api.force_authenticate(world.users["observer"])
    answers["api 403"] = api.post(
        f"/api/v1/campaigns/{world.campaign.pk}/rolls/", {"kind": "d6"}, format="json"
    )
    answers["api 400"] = api.post(f"/api/v1/campaigns/{world.campaign.pk}/rolls/", {"kind": 5}, format="json")
    answers["browsable api 404"] = api.get("/api/v1/campaigns/999999/", HTTP_ACCEPT="text/html")
    statuses = {what: response.status_code for what, response in answers.items()}
    assert statuses["web 404"] == 404 and statuses["web 429"] == 429 and statuses["api 404"] == 404
    assert statuses["web 403"] == 403 and statuses["api 401"] == 401, statuses
    for what, response in answers.items():
        _assert_same_headers(response, what)


def test_a_server_error_carries_the_same_headers(world, client, monkeypatch):
    from campaigns import views

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(views, "demo_logins", broken)
    client.raise_request_exception = False
    response = client.get("/accounts/login/")
    assert response.status_code == 500
    _assert_same_headers(response, "web 500")


def test_the_404_page_of_make_run_carries_the_policy_too(db, client, settings):
    """`make run` serves with DEBUG on, where django-csp left 404 and 500 answers without a policy."""
    settings.DEBUG = True
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    _assert_same_headers(response, "404 with DEBUG on")


def test_redirects_carry_the_policy(db, client):
    redirect = client.get("/favicon.ico")
    assert redirect.status_code in (301, 302)
    _assert_same_headers(redirect, "a redirect")
