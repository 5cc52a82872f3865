"""The shortcut reader of plain frontmatters agrees with YAML."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from streamblocks.core.yaml_text import _plain_mapping, load_yaml_mapping

KEYS = st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,6}", fullmatch=True)
VALUES = st.one_of(
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_./-]{0,8}", fullmatch=True),
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(["yes", "No", "TRUE", "off", "null", "1.5", "0x1F", "007", "1e3", "~", "a:b"]),
    st.sampled_from(["'quoted'", '"q"', "[1, 2]", "{a: 1}", "2024-01-01", "", "x # c"]),
)
LINES = st.tuples(KEYS, VALUES, st.sampled_from([" ", "  ", "\t", ""]), st.sampled_from(["", " "]))


@settings(max_examples=500, deadline=None)
@given(st.lists(LINES, max_size=6), st.sampled_from(["\n", "\r\n"]))
def test_plain_reader_matches_yaml(lines: list[tuple[str, str, str, str]], newline: str) -> None:
    text = "".join(f"{key}:{gap}{value}{tail}{newline}" for key, value, gap, tail in lines)
    try:
        expected = yaml.safe_load(text)
    except yaml.YAMLError:
        assert _plain_mapping(text) is None
        return
    plain = _plain_mapping(text)
    if plain is not None:
        assert plain == (expected or {})
        assert load_yaml_mapping(text, "frontmatter") == plain


def test_plain_reader_takes_the_common_case() -> None:
    assert _plain_mapping("id: t1\nblock_type: task\npriority: 2\n") == {
        "id": "t1",
        "block_type": "task",
        "priority": 2,
    }
    assert _plain_mapping("done: yes\n") is None
    assert _plain_mapping("ON: A\n") is None  # YAML 1.1 reads the key as True
    assert _plain_mapping("when: 2024-01-01\n") is None
