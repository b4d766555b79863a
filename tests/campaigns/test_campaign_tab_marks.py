"""Which campaign tab a page marks: the tab with the longest matching prefix of its URL name."""

from __future__ import annotations

from campaigns.templatetags.campaign_nav import current_tab


def test_a_page_marks_the_tab_with_the_most_specific_prefix():
    # the import page (and its refusals) belongs to Export, not to Characters ("character-")
    assert current_tab("character-import", "timemaster") == "campaign-archive"
    assert current_tab("character-export", "d6") == "campaign-archive"
    assert current_tab("character-detail", "timemaster") == "character-list"
    assert current_tab("missions-list", "timemaster") == "missions-list"  # a system's own tab
    assert current_tab("campaign-settings", "tempo") == "campaign-detail"
    assert current_tab("campaign-search", "tempo") is None  # the search has a tab of its own
    assert current_tab(None, "tempo") is None
