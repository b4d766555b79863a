"""A role's chosen benefits are shown whole (issue 44, finding 12): the printed sheet cut them at
40 and 50 characters with "…", and the character page named them with their words in a tooltip a
phone never shows. Both now carry each benefit's name and its whole text, the printed sheet at the
longest input the builder takes (Cold Read, the module's longest, and Great Mind's academic field
at its limit) still on one page (tests/sheets/test_longest_input.py)."""

from __future__ import annotations

import re

import pytest

from systems.tempo.engine.modules import get_module
from tests.sheets import samples

PAPERS = ("a4", "letter")


def chosen(build: dict) -> list[tuple[str, str]]:
    """(name, whole text) of every benefit the build chose."""
    module = get_module("flashpoints")
    found = []
    for role in module.roles:
        for pick in build["benefits"].get(role.key, []):
            benefit = next(b for b in role.benefits if b.key == pick["key"])
            found.append(
                (benefit.name + (f" — {pick['field']}" if pick.get("field") else ""), benefit.summary)
            )
    return found


@pytest.mark.parametrize("paper", PAPERS)
def test_the_printed_sheet_carries_every_benefit_whole(paper):
    case = samples.character_case("tempo", "long")
    build = samples.build_of("tempo", "long")
    report = samples.layout(case.id, paper)
    # the runs of text as laid out, line breaks anywhere: compared without white space
    text = re.sub(r"\s+", "", report.text if isinstance(report.text, str) else "".join(report.text))
    benefits = chosen(build)
    assert any(len(summary) > 140 for _, summary in benefits)  # Cold Read, the longest
    assert any(len(name) > 120 for name, _ in benefits)  # Great Mind's field at the builder's limit
    for name, summary in benefits:
        assert re.sub(r"\s+", "", f"{name}: {summary}") in text, name
    assert report.pages == case.declared_pages == 1


def test_the_character_page_shows_every_benefit_whole(world, tempo, agent, client):
    client.force_login(world.users["player"])
    page = client.get(f"/characters/{agent.pk}/").content.decode()
    roles = page.split('data-testid="roles"')[1].split("</table>")[0]
    for name, summary in chosen(agent.build):
        assert f"<strong>{name}</strong>" in roles and summary in roles, name
    assert "title=" not in roles  # no text only a mouse pointer reaches
