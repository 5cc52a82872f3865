"""Shared by the partial-object tests: what "monotone" means, and argument objects."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


def grows(before: Any, after: Any) -> bool:
    """Whether ``after`` keeps everything ``before`` held: strings only grow, containers
    keep their members (in order) and add more, other values stay as they were."""
    if before is None:
        return True
    if type(before) is not type(after):
        return False
    if isinstance(before, str):
        return after.startswith(before)
    if isinstance(before, dict):
        keys = list(after)
        return list(before) == keys[: len(before)] and all(
            grows(value, after[key]) for key, value in before.items()
        )
    if isinstance(before, list):
        return len(before) <= len(after) and all(
            grows(a, b) for a, b in zip(before, after, strict=False)
        )
    return bool(before == after)


def assert_monotone(values: list[Any], final: Any) -> None:
    for index in range(1, len(values)):
        assert grows(values[index - 1], values[index]), (values[index - 1], values[index])
    assert values, "no partial at all"
    assert values[-1] == final


# Strings with what trips JSON readers up: quotes, backslashes, escapes of every kind,
# characters outside the BMP (surrogate pairs when escaped), closers of markup formats.
TRICKY = st.sampled_from(
    ['"', "\\", "\\u", "\n", "\t", "/", "}", "]", "</tool_call>", "<|call|>", "é", "😀", "\x00"]
)
STRINGS = st.lists(st.one_of(st.text(max_size=8), TRICKY), max_size=6).map("".join)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    STRINGS,
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(STRINGS, inner, max_size=4),
    ),
    max_leaves=12,
)
ARGUMENTS = st.dictionaries(STRINGS, VALUES, max_size=5)
"""Argument objects: nested, unicode, escapes, numbers, strings of any length."""
