"""The pure checker of kernel/input_boundary.py: what it refuses, where it says the problem is,
and that the depth found in the text before parsing agrees with the depth of the parsed value."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.input_boundary import (
    BAD_CHARACTER,
    InputRefused,
    Limits,
    depth_problem,
    form_problem,
    loads,
    value_problem,
)

LIMIT = Limits(depth=4, string_chars=50, number=1000, items=40, digit_run=10)


def refused_at(text: str, limit: Limits = LIMIT) -> tuple[str, str]:
    with pytest.raises(InputRefused) as refused:
        loads(text, limit)
    return refused.value.problem.path, refused.value.problem.message


@pytest.mark.parametrize(
    "text,path,words",
    [
        ('{"a": {"b": [1, "x\\udc00"]}}', "a.b[1]", "lone surrogate (U+DC00"),
        ('{"a": "\\ud800"}', "a", "lone surrogate (U+D800"),
        ('{"a": ["ok", "x\\u0000"]}', "a[1]", "NUL character"),
        ('{"a": "bell\\u0007"}', "a", "control character (U+0007)"),
        ('{"a\\u0000": 1}', "a\ufffd", "has a name that holds a NUL"),
        ('{"a": "' + "y" * 51 + '"}', "a", "51 characters long"),
        ('{"a": "id 12345678901"}', "a", "a number of 11 digits"),
        ('{"n": 1001}', "n", "out of range"),
        ('{"n": -1001.5}', "n", "out of range"),
        ('{"n": 1e999}', "n", "not a finite number"),
        ('{"n": NaN}', "n", "not a finite number"),
        ('{"n": ' + "9" * 4301 + "}", "n", "a number of 4301 digits"),
        ('{"a": [[[[1]]]]}', "a[0][0][0]", "nests deeper than 4 levels"),
        ('{"a": {"b": {"c": {"d": {}}}}}', "a.b.c.d", "nests deeper than 4 levels"),
        ('[0, {"k": [[[]]]}]', "[1].k[0][0]", "nests deeper than 4 levels"),
        ("[" + ", ".join(["1"] * 40) + "]", "", "more than 40 values"),
    ],
)
def test_refusals_name_the_path_of_the_first_value_at_fault(text, path, words):
    where, message = refused_at(text)
    assert where == path
    assert words in message


def test_brackets_and_escaped_quotes_inside_strings_are_not_nesting():
    text = json.dumps({"a": "[[[[[{{{{{", "b": 'say \\"[[[[[[" now', "c": [["x"]]})
    assert loads(text, LIMIT)["a"] == "[[[[[{{{{{"


@pytest.mark.parametrize(
    "text", ['"tab\\there, newline\\n, return\\r"', '"rocket \\ud83d\\ude80"', '"del \\u007f"', '"é"']
)
def test_valid_text_passes(text):
    assert loads(text, LIMIT) == json.loads(text)


def test_depth_is_refused_before_parsing_so_nothing_recurses():
    text = "[" * 200_000 + "]" * 200_000  # json.loads alone would raise RecursionError
    assert refused_at(text, Limits())[1] == "nests deeper than 32 levels."


def test_form_fields_are_checked_by_name_and_value():
    assert form_problem([("title", "ok"), ("notes", "a\x00")], LIMIT).path == "notes"
    assert form_problem([("skill_" + "1" * 20, "x")], LIMIT).message.startswith("has a name that")
    assert form_problem([("title", "fine\ttext\r\n")], LIMIT) is None


# Text without refused characters (so depth is the only problem), brackets and quotes included.
texts = st.text(st.characters() | st.sampled_from(list('[]{}"\\:,')), max_size=5).filter(
    lambda text: not BAD_CHARACTER.search(text)
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | texts,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(texts, children, max_size=3),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_the_depth_found_in_the_text_agrees_with_the_parsed_value(value):
    limit = Limits(depth=3, string_chars=100, number=1000, items=None, digit_run=100)
    text = json.dumps(value)
    by_text = depth_problem(text, limit)
    by_value = value_problem(value, "", limit)
    too_deep = by_value is not None and "nests deeper" in by_value.message
    assert (by_text is not None) == too_deep
    if by_text is not None:
        assert by_text.path == by_value.path
