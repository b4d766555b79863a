"""The wording helpers (characters/systems/wording.py) and their template filters: possessives and
counts that agree with their nouns and verbs (issue 44, finding 7)."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from characters.systems import wording


@pytest.mark.parametrize(
    "name, expected",
    [
        ("Dock thug", "Dock thug's"),
        ("Dock thugs", "Dock thugs'"),
        ("HARRIET", "HARRIET's"),
        ("BOSS", "BOSS'"),
        ("  Ada ", "Ada's"),
        ("Dock thugs'", "Dock thugs'"),  # typed already possessive: left as it is
        ("", ""),
    ],
)
def test_possessive(name, expected):
    assert wording.possessive(name) == expected


@pytest.mark.parametrize(
    "count, expected",
    [
        (0, "0 declared actions are"),
        (1, "1 declared action is"),
        (2, "2 declared actions are"),
        (-1, "-1 declared action is"),
    ],
)
def test_a_count_agrees_with_its_noun_and_verb(count, expected):
    assert f"{wording.counted(count, 'declared action')} {wording.is_are(count)}" == expected


def test_irregular_plurals_and_the_other_verbs():
    assert wording.counted(1, "die", "dice") == "1 die"
    assert wording.counted(3, "die", "dice") == "3 dice"
    assert (wording.was_were(1), wording.was_were(2)) == ("was", "were")
    assert (wording.has_have(1), wording.has_have(5)) == ("has", "have")


def test_the_template_filters_say_the_same_and_stay_escaped():
    template = Template(
        '{% load wording %}{{ name|possessive }} / {{ n|counted:"declared action" }} {{ n|is_are }}'
        ' / {{ m|counted:"die,dice" }} {{ m|was_were }} / {{ bad|counted:"point" }}'
    )
    page = template.render(Context({"name": "<b>Dock thugs</b>", "n": 1, "m": 2, "bad": "x"}))
    assert page == ("&lt;b&gt;Dock thugs&lt;/b&gt;&#x27;s / 1 declared action is / 2 dice were / 0 points")
