"""Every character builder answers a step name it does not have the same way: 404 with a short
message naming its steps, on GET and on POST, and the draft stays as it was."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters import services
from characters.builder import step_keys
from characters.models import Character
from characters.views import WIZARDS
from tests import system_kit

SYSTEMS = [key for key in system_kit.installed_keys() if key in WIZARDS]


@pytest.fixture
def draft_in(make_user):
    def make(system):
        owner = make_user(f"owner-{system}")
        campaign = system_kit.make_campaign(owner, system)
        return services.create_draft(campaign, owner, choices={"name": "Nobody yet"})

    return make


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_an_unknown_step_is_404_with_a_clear_message(draft_in, client, system, method):
    draft = draft_in(system)
    client.force_login(draft.owner)
    url = reverse("character-wizard-step", args=[draft.pk, "no-such-step"])
    response = getattr(client, method)(url, {"name": "Changed"})
    assert response.status_code == 404
    text = response.content.decode()
    assert "no step called &#x27;no-such-step&#x27;" in text
    assert ", ".join(step_keys(WIZARDS[system])) in text
    after = Character.objects.get(pk=draft.pk)
    assert after.status == "draft" and after.choices == {"name": "Nobody yet"}


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_builders_own_steps_are_still_there(draft_in, client, system):
    draft = draft_in(system)
    client.force_login(draft.owner)
    first = step_keys(WIZARDS[system])[0]
    assert client.get(reverse("character-wizard-step", args=[draft.pk, first])).status_code in (200, 302)


def test_an_unknown_step_of_someone_elses_draft_stays_a_plain_404(draft_in, client, make_user):
    draft = draft_in("time_to_kill")
    client.force_login(make_user("stranger"))
    response = client.get(reverse("character-wizard-step", args=[draft.pk, "no-such-step"]))
    assert response.status_code == 404 and "no step called" not in response.content.decode()
