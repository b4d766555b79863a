"""JSON-shaped junk for the engines' refusal properties (tests/systems/*/test_*_junk_input.py).

Every public engine function takes JSON that came from a user or from storage; whatever its shape,
the engine answers with its own refusal (RuleError, or a RuleViolation list) and never with a
TypeError/KeyError/AttributeError from deep inside.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from characters.systems.base import RuleError, RuleViolation

#: Words the engines look for, so junk dicts sometimes carry a key the engine reads.
COMMON_KEYS = (
    "id",
    "kind",
    "type",
    "name",
    "key",
    "text",
    "anchor",
    "code",
    "value",
    "values",
    "amount",
    "count",
    "reason",
    "reverses",
    "mission",
    "role",
    "rating",
    "aspect",
    "aspects",
    "benefit",
    "use",
    "by",
    "side",
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.integers(min_value=-3, max_value=100),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "all", "0", "1", "3D", "3D+1", "-", "+", "free", "paid", "gm", "player"]),
)


def json_junk(keys: Iterable[str] = ()) -> st.SearchStrategy[Any]:
    """None/bool/int/float/text, and lists and dicts of those, nested a few levels deep."""
    names = st.sampled_from(tuple(keys) + COMMON_KEYS) | st.text(max_size=8)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(names, inner, max_size=4),
        max_leaves=12,
    )


junk = json_junk()

#: Moderate and deterministic: the whole junk suite runs in well under a minute on two cores.
JUNK_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def with_field(document: dict, path: tuple, value: Any) -> dict:
    """A deep copy of ``document`` with the field at ``path`` (keys/indexes) set to ``value``."""
    result = copy.deepcopy(document)
    target = result
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return result


def field_paths(document: Any, prefix: tuple = (), depth: int = 3) -> list[tuple]:
    """Every key/index path in ``document`` down to ``depth`` levels (the places junk can go)."""
    paths: list[tuple] = []
    if depth == 0:
        return paths
    items = (
        document.items()
        if isinstance(document, dict)
        else enumerate(document)
        if isinstance(document, list)
        else ()
    )
    for key, value in items:
        paths.append(prefix + (key,))
        paths.extend(field_paths(value, prefix + (key,), depth - 1))
    return paths


def refused_or_answered(call: Callable[[], Any]) -> Any:
    """Run ``call``; a RuleError must name its fields in words. Any other exception fails the test."""
    try:
        return call()
    except RuleError as error:
        assert error.violations
        for violation in error.violations:
            assert isinstance(violation.field, str)
            assert isinstance(violation.message, str) and violation.message
        return error


def violations_only(result: Any) -> None:
    """``validate`` answers with a list of RuleViolations naming their fields."""
    assert isinstance(result, list)
    for violation in result:
        assert isinstance(violation, RuleViolation)
        assert isinstance(violation.field, str)
        assert violation.message


class Case:
    """One entry point fed junk: ``call(value)`` with ``value`` drawn from ``strategy``.

    ``answers`` says what a valid answer looks like: "anything" (a result or a RuleError) or
    "violations" (a list of RuleViolations; a RuleError is not expected there either).
    """

    def __init__(self, name: str, call: Callable[[Any], Any], strategy=None, answers: str = "anything"):
        self.name = name
        self.call = call
        self.strategy = junk if strategy is None else strategy
        self.answers = answers

    def __repr__(self) -> str:
        return self.name

    def check(self, value: Any) -> None:
        if self.answers == "violations":
            violations_only(self.call(value))
        else:
            refused_or_answered(lambda: self.call(value))


def one_field_junk(document: dict, depth: int = 3, keys: Iterable[str] = ()) -> st.SearchStrategy:
    """``document`` with one field (at any depth) replaced by junk, or one junk field added."""
    paths = field_paths(document, depth=depth)
    replaced = st.tuples(st.sampled_from(paths), json_junk(keys)).map(
        lambda pair: with_field(document, pair[0], pair[1])
    )
    added = st.tuples(st.sampled_from(tuple(keys) + COMMON_KEYS), json_junk(keys)).map(
        lambda pair: {**copy.deepcopy(document), pair[0]: pair[1]}
    )
    return replaced | added if paths else added
