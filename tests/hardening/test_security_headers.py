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
