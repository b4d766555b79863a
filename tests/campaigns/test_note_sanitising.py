# ruff: noqa: E501  (the cheat sheet's vectors are kept whole, as written there)
"""Notes are Markdown rendered by markdown-it-py and sanitised by nh3 after rendering (issue 50):
a representative list of the OWASP XSS Filter Evasion Cheat Sheet's vectors, each typed into a
note as it is and inside Markdown's own link and image syntax, comes out with no script, no
event handler, no style and no javascript:/vbscript:/data: URL."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from campaigns.chronicle import notes

# From the OWASP XSS Filter Evasion Cheat Sheet (a representative selection, written as there).
VECTORS = [
    "<SCRIPT SRC=https://cdn.example/xss.js></SCRIPT>",
    "javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/\"/+/onmouseover=1/+/[*/[]/+alert(1)//'>",
    "<IMG SRC=\"javascript:alert('XSS');\">",
    "<IMG SRC=javascript:alert('XSS')>",
    "<IMG SRC=JaVaScRiPt:alert('XSS')>",
    "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
    '<a onmouseover="alert(document.cookie)">xxs link</a>',
    "<a onmouseover=alert(document.cookie)>xxs link</a>",
    '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
    "<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>",
    "<IMG SRC=# onmouseover=\"alert('xxs')\">",
    '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
    '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
    "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
    "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>",
    "<IMG SRC=\"jav\tascript:alert('XSS');\">",
    "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
    "<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">",
    "<IMG SRC=\" &#14;  javascript:alert('XSS');\">",
    '<SCRIPT/XSS SRC="http://xss.example/xss.js"></SCRIPT>',
    '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
    '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
    "<SCRIPT SRC=http://xss.example/xss.js?< B >",
    "<IMG SRC=\"`<javascript:alert>`('XSS')\"",
    '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
    '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">',
    "<BODY BACKGROUND=\"javascript:alert('XSS')\">",
    "<IMG DYNSRC=\"javascript:alert('XSS')\">",
    "<STYLE>li {list-style-image: url(\"javascript:alert('XSS')\");}</STYLE><UL><LI>XSS</br>",
    "<svg/onload=alert('XSS')>",
    "<BODY ONLOAD=alert('XSS')>",
    "<IFRAME SRC=\"javascript:alert('XSS');\"></IFRAME>",
    "<TABLE BACKGROUND=\"javascript:alert('XSS')\">",
    "<DIV STYLE=\"background-image: url(javascript:alert('XSS'))\">",
    '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">x</a>',
    '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.example/scriptlet.html"></OBJECT>',
    '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv" AllowScriptAccess="always"></EMBED>',
    "<a href=\"vbscript:msgbox('XSS')\">x</a>",
    "<BASE HREF=\"javascript:alert('XSS');//\">",
]

# The same payloads as Markdown writes links and images (markdown-it-py refuses some of these
# itself; nh3 is the guard either way).
MARKDOWN_VECTORS = [
    "[click](javascript:alert('XSS'))",
    "[click](JaVaScRiPt:alert(1))",
    "[click](javascript&#58;alert(1))",
    "[click](&#x6A;avascript:alert(1))",
    "[click](vbscript:msgbox(1))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![img](javascript:alert(1))",
    "[click]( javascript:alert(1) )",
    '[click](https://ok.example "title" onclick="alert(1)")',
    "<javascript:alert(1)>",
    "[[<script>alert(1)</script>]]",
    '[[" onmouseover="alert(1)]]',
]


class _Elements(HTMLParser):
    """Every element and attribute the browser would build from the HTML (text stays text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, attrs))

    handle_startendtag = handle_starttag


#: A URL's scheme as a browser reads it, once control characters and blanks are dropped.
SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):", re.I)
URL_ATTRIBUTES = {
    "href",
    "src",
    "background",
    "dynsrc",
    "lowsrc",
    "action",
    "formaction",
    "data",
    "xlink:href",
}


def problems(html: str) -> list[str]:
    """What in the HTML could run a script: a tag outside the allow-list, an event handler or style
    attribute, a URL whose scheme is not http, https or mailto."""
    parser = _Elements()
    parser.feed(html)
    parser.close()
    found = []
    for tag, attrs in parser.found:
        if tag not in notes.ALLOWED_TAGS:
            found.append(f"tag {tag}")
        for name, value in attrs:
            allowed = notes.ALLOWED_ATTRIBUTES.get(tag, set()) | {"rel"}
            if name.startswith("on") or name == "style" or name not in allowed:
                found.append(f"attribute {name} on {tag}")
            if name in URL_ATTRIBUTES and value is not None:
                plain = re.sub(r"[\x00-\x20]", "", value)
                scheme = SCHEME.match(plain)
                if scheme and scheme.group(1).lower() not in notes.URL_SCHEMES:
                    found.append(f"URL {value!r}")
    if re.search(r"<\s*script", html, re.I):
        found.append("a script tag")
    return found


@pytest.mark.parametrize("vector", VECTORS + MARKDOWN_VECTORS)
def test_no_vector_of_the_cheat_sheet_survives_rendering(vector):
    for text in (vector, f"Before {vector} after", f"* {vector}", f"> {vector}", f"[x]({vector})"):
        html = notes.render(text, {})
        assert problems(html) == [], (text, html)


def test_the_checker_finds_what_it_looks_for():
    assert problems('<img src="x" onerror="alert(1)">') == [
        "tag img",
        "attribute src on img",
        "attribute onerror on img",
    ]
    assert problems('<a href=" java\tscript:alert(1)">x</a>') == ["URL ' java\\tscript:alert(1)'"]
    assert problems("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>") == []


def test_markdown_still_renders_what_a_note_means():
    html = notes.render("# Recap\n\n**Bold** and *soft*, a [link](https://example.com).\n\n- one\n- two", {})
    assert "<h1>Recap</h1>" in html and "<strong>Bold</strong>" in html and "<em>soft</em>" in html
    assert '<a href="https://example.com" rel="noopener noreferrer nofollow">link</a>' in html
    assert "<li>one</li>" in html


def test_a_mention_is_escaped_and_linked_only_to_a_target_given():
    target = notes.Target("npc", 5, "Vale & Co", "/campaigns/1/npcs/5/")
    html = notes.render("Met [[Vale & Co]] and [[<b>Nobody</b>]].", {"vale & co": target})
    assert '<a class="mention mention-npc" href="/campaigns/1/npcs/5/"' in html
    assert "Vale &amp; Co</a>" in html
    assert "<b>" not in html and '<span class="mention">&lt;b&gt;Nobody&lt;/b&gt;</span>' in html
