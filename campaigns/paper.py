"""The paper a new campaign prints on, from the browser's region (issue 44, finding 10).

US Letter is the paper of the United States and Canada; nearly everywhere else prints on A4. A
browser says where its user is only through the regions of its ``Accept-Language`` tags
("en-US", "fr-CA", "de-DE", "es-419"), so the most preferred tag that names a region decides. A
header that names no region says nothing of the paper when its first language is English (spoken
on both papers), and A4 otherwise ("de", "ja"); no header at all leaves the model's default. An
existing campaign keeps its paper: only creation asks (campaigns/services.create_campaign), and the
GM changes it on the settings page.
"""

from __future__ import annotations

LETTER = "letter"
A4 = "a4"
#: Regions (ISO 3166-1 alpha-2) whose paper is US Letter.
LETTER_REGIONS = frozenset({"US", "CA"})
#: Tags read from a header, at most (a header is a client's text: bounded work).
MAX_TAGS = 20


def _weight(params: str) -> float:
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                return float(value)
            except ValueError:
                return 0.0
    return 1.0


def _region(tag: str) -> str | None:
    """The region subtag of a language tag ("US" in "en-US", "419" in "es-419"), or None."""
    for subtag in tag.split("-")[1:]:
        if (len(subtag) == 2 and subtag.isalpha()) or (len(subtag) == 3 and subtag.isdigit()):
            return subtag.upper()
    return None


def paper_for_languages(header: str | None) -> str | None:
    """ "letter" or "a4" for an ``Accept-Language`` header, or None when it says nothing of the paper."""
    tags = []
    for index, part in enumerate((header or "").split(",")[:MAX_TAGS]):
        tag, _, params = part.strip().partition(";")
        tag, weight = tag.strip(), _weight(params)
        if tag and tag != "*" and weight > 0:
            tags.append((-weight, index, tag))
    ordered = [tag for _, _, tag in sorted(tags)]
    for tag in ordered:
        region = _region(tag)
        if region is not None:
            return LETTER if region in LETTER_REGIONS else A4
    if not ordered:
        return None
    return None if ordered[0].split("-")[0].lower() == "en" else A4


def paper_for_request(request) -> str | None:
    return paper_for_languages(request.META.get("HTTP_ACCEPT_LANGUAGE"))
