"""kernel.form_renderer writes <select> in Python: its markup must be exactly what Django's widget
templates give, for edge cases and for the project's real pages with long selects."""

from __future__ import annotations

import datetime
import re

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from kernel.form_renderer import SelectRenderer
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)

TEMPLATES_RENDERER = "django.forms.renderers.DjangoTemplates"


class Things(forms.Form):
    plain = forms.ChoiceField(choices=[("a", "Alpha"), ("b", "Beta & <Gamma>")], initial="b")
    numbers = forms.TypedChoiceField(choices=[(1, 1), (2, 2.5), (30000, "30,000")], coerce=int)
    grouped = forms.ChoiceField(
        choices=[
            ("", "—"),
            ("Abilities", [("ability:DEX", "Dexterity 72")]),
            ("Skills", [("s:1", 'Say "hi"')]),
        ],
        required=False,
    )
    many = forms.MultipleChoiceField(choices=[("x", "X"), ("y", "Y"), ("z", "Z")], initial=["x", "z"])
    maybe = forms.NullBooleanField()
    lazy = forms.ChoiceField(choices=[("l", gettext_lazy("Lazy label"))])
    safe = forms.ChoiceField(choices=[(mark_safe("<b>v</b>"), mark_safe("<i>safe</i>"))])
    dated = forms.ChoiceField(choices=[("d", datetime.date(2026, 11, 23))])
    styled = forms.ChoiceField(
        choices=[("1", "One")],
        widget=forms.Select(attrs={"class": 'wide "quoted"', "disabled": True, "hidden": False, "data-n": 3}),
    )


@pytest.mark.parametrize("bound", [False, True], ids=["unbound", "bound"])
@pytest.mark.parametrize("name", list(Things.base_fields))
def test_a_select_is_written_exactly_as_the_widget_templates_write_it(name, bound):
    data = {"plain": "a", "numbers": "2", "grouped": "s:1", "many": ["y"], "maybe": "true", "styled": "1"}
    field = Things(data if bound else None)[name]
    ours = field.as_widget()  # the project's renderer (settings.FORM_RENDERER)
    with override_settings(FORM_RENDERER=TEMPLATES_RENDERER):
        theirs = Things(data if bound else None)[name].as_widget()
    assert "<select" in ours
    assert str(ours) == str(theirs)


def test_the_renderer_in_use_is_the_select_one_and_other_widgets_still_use_templates():
    assert isinstance(Things().renderer, SelectRenderer)
    text_input = forms.CharField().widget.render("name", "<x>", renderer=SelectRenderer())
    assert text_input == '<input type="text" name="name" value="&lt;x&gt;">'
    radios = forms.RadioSelect(choices=[("a", "A")]).render("r", "a", renderer=SelectRenderer())
    assert radios == forms.RadioSelect(choices=[("a", "A")]).render("r", "a", renderer=DjangoTemplates())


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    # The CSRF token (64 letters and digits, in forms and htmx headers) differs on every response;
    # nothing else may.
    return re.sub(r"[A-Za-z0-9]{64}", "<token>", response.content.decode())


@pytest.mark.parametrize("role", ["gm", "player"])
def test_pages_with_long_selects_are_identical_with_either_renderer(world, make_agent, role):  # noqa: F811
    make_agent("player")
    client = Client()
    client.force_login(world.users[role])
    urls = [reverse("campaign-dice", args=[world.campaign.pk])]
    if role == "gm":
        urls.append(reverse("npc-list", args=[world.campaign.pk]))
    for url in urls:
        ours = _page(client, url)
        with override_settings(FORM_RENDERER=TEMPLATES_RENDERER):
            theirs = _page(client, url)
        assert ours.count("<option") > 20, url  # the long selects are there
        assert ours == theirs, url
