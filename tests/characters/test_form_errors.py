"""Issue 21, defect 4: a builder step or a settings form shows every error at once, each beside its
field, with a summary at the top whose links lead to the fields (templates/_form.html)."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from campaigns import services as campaign_services
from characters import services
from characters.models import Character


@pytest.fixture
def owner(make_user):
    return make_user("owner-tm")


def summary_links(html: str) -> dict[str, str]:
    """The error summary's links: field id -> the message shown."""
    summary = re.search(r'<div class="errors error-summary" role="alert".*?</div>', html, re.S)
    assert summary, "no error summary at the top of the form"
    return {m[0]: html_lib.unescape(m[1]) for m in re.findall(r'<a href="#(id_\w+)">(.*?)</a>', summary[0])}


def beside(html: str, field_id: str) -> str:
    """The error text written beside a field; the field names it in aria-describedby."""
    widget = re.search(rf'<(?:input|select|textarea)[^>]*id="{field_id}"[^>]*>', html)
    assert widget and f"{field_id}_error" in widget[0] and 'aria-invalid="true"' in widget[0], field_id
    box = re.search(rf'<div class="error" id="{field_id}_error">(.*?)</div>', html, re.S)
    assert box, field_id
    return html_lib.unescape(box[1])


def test_a_builder_step_shows_the_forms_and_the_engines_errors_at_once(owner, client):
    campaign = campaign_services.create_campaign(owner, name="Corps", system="timemaster")
    draft = services.create_draft(campaign, owner, choices={"name": "Nobody yet"})
    client.force_login(owner)
    url = reverse("character-wizard-step", args=[draft.pk, "background"])
    # the form's own checks (name, year of birth, age) and the engine's (sex, place of birth) fail
    response = client.post(url, {"name": "", "birth_year": "", "age_at_recruitment": "", "sex": ""})
    assert response.status_code == 400
    html = response.content.decode()
    links = summary_links(html)
    assert set(links) == {"id_name", "id_birth_year", "id_age_at_recruitment", "id_sex", "id_birth_place"}
    assert links["id_sex"] == "Sex: Sex must be male or female."
    assert links["id_birth_place"] == "Place of birth: Enter the place of birth."
    for field_id, message in links.items():
        assert message in beside(html, field_id)
    # nothing was saved while the form had errors
    assert Character.objects.get(pk=draft.pk).choices == {"name": "Nobody yet"}


def test_a_settings_form_lists_every_error_at_the_top_linked_to_its_field(owner, client):
    campaign = campaign_services.create_campaign(owner, name="Corps", system="timemaster")
    client.force_login(owner)
    response = client.post(reverse("campaign-settings", args=[campaign.pk]), {})
    assert response.status_code == 400
    html = response.content.decode()
    links = summary_links(html)
    required = re.findall(r'<(?:input|select)[^>]*\brequired\b[^>]*id="(id_\w+)"', html)
    assert required and set(required) <= set(links)
    for field_id in links:
        assert "This field is required." in beside(html, field_id)
