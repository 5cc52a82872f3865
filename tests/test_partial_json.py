"""The incremental partial-JSON reader: the value so far at every place of the text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partial_helpers import ARGUMENTS, VALUES, assert_monotone, grows
from streamblocks.core.json_prefix import json_prefix
from streamblocks.core.partial_json import PartialJson


def values_at(pieces: list[str]) -> list[Any]:
    reader = PartialJson()
    out = []
    for piece in pieces:
        reader.feed(piece)
        assert reader.error is None, reader.error
        out.append(reader.value())
    return out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", None),
        ("  ", None),
        ("{", {}),
        ('{"ke', {}),
        ('{"key"', {}),
        ('{"key": ', {}),
        ('{"key": "', {"key": ""}),
        ('{"key": "ab', {"key": "ab"}),
        ('{"key": "a\\', {"key": "a"}),
        ('{"key": "a\\n', {"key": "a\n"}),
        ('{"key": "a\\u00', {"key": "a"}),
        ('{"key": "a\\u00e9', {"key": "aé"}),
        ('{"key": "\\ud83d', {"key": ""}),  # half a surrogate pair: held back
        ('{"key": "\\ud83d\\ude00', {"key": "😀"}),
        ('{"key": "\\ud83dx', {"key": "\ud83dx"}),  # a lone surrogate, as json.loads keeps it
        ('{"n": 12', {}),  # a number may go on
        ('{"n": 12,', {"n": 12}),
        ('{"n": -1.5e3}', {"n": -1500.0}),
        ('{"t": tru', {}),
        ('{"t": true', {"t": True}),
        ('{"t": null, "f": false', {"t": None, "f": False}),
        ('{"a": [1, [2, {"b": "c', {"a": [1, [2, {"b": "c"}]]}),
        ("[1, 2", [1]),
        ('"top', "top"),
        ("12", None),
    ],
)
def test_value_so_far(text: str, expected: Any) -> None:
    reader = PartialJson()
    reader.feed(text)
    assert reader.error is None
    assert reader.value() == expected


def test_escapes_split_at_every_place() -> None:
    text = json.dumps({"s": 'a"b\\c\n\t/😀é\u2028\x01'}, ensure_ascii=True)
    final = json.loads(text)
    for cut in range(len(text) + 1):
        values = values_at([text[:cut], text[cut:]])
        assert grows(values[0], values[1])
        assert values[1] == final


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a" 1}', "':'"),
        ('{"a": 1,}', "key"),
        ("[1,]", "value"),
        ('{"a": tx}', "literal"),
        ('{"a": "\\x"}', "escape"),
        ('{"a": 01}', "number"),
        ('{"a": 1} x', "after the end"),
    ],
)
def test_not_json_stops_the_reader_and_keeps_the_value(text: str, message: str) -> None:
    reader = PartialJson()
    reader.feed(text)
    assert reader.error is not None and message in reader.error
    reader.feed("more")  # ignored
    assert reader.error is not None


def test_open_path_names_the_unfinished_part() -> None:
    reader = PartialJson()
    assert reader.open_path() is None
    reader.feed('{"a": [1, {"b": "x')
    assert reader.open_path() == ("a", 1, "b")
    reader.feed('"}, 2')
    assert reader.open_path() == ("a",)
    reader.feed("]}")
    assert reader.open_path() is None


def test_open_containers_are_new_and_finished_values_shared() -> None:
    reader = PartialJson()
    reader.feed('{"a": [1, {"b": 2}], "c": [3, "d')
    first = reader.value()
    first["x"] = 1
    first["c"].append(9)  # open containers: this read's own
    reader.feed('e"')
    second = reader.value()
    assert second == {"a": [1, {"b": 2}], "c": [3, "de"]}
    assert second["a"] is first["a"]  # finished: shared, never changes again


@settings(max_examples=150, deadline=None)
@given(value=VALUES, indent=st.sampled_from([None, 1]), ascii_only=st.booleans(), data=st.data())
def test_every_prefix_is_monotone_and_the_end_is_the_value(
    value: Any, indent: int | None, ascii_only: bool, data: st.DataObject
) -> None:
    text = json.dumps({"v": value}, indent=indent, ensure_ascii=ascii_only)
    final = json.loads(text)
    assert_monotone(values_at(list(text)), final)  # every split, one character at a time
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=6)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    assert_monotone(values_at(pieces), final)


@settings(max_examples=100, deadline=None)
@given(arguments=ARGUMENTS)
def test_json_prefix_is_extended_by_every_later_value(arguments: dict[str, Any]) -> None:
    text = json.dumps(arguments, ensure_ascii=False)
    final = json.dumps(json.loads(text), ensure_ascii=False)
    sent = ""
    for value in values_at(list(text)):
        prefix = json_prefix(value)
        assert prefix.startswith(sent) or (len(prefix) < len(sent) and sent.startswith(prefix))
        sent = max(sent, prefix, key=len)
        assert final.startswith(prefix)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "b": "x", "a": 2}',
        '{"a": "one", "a": "two"}',
        '{"o": {"a": [1], "a": {"k": 3}}, "p": 4}',
        '{"a": {"x": 1, "x": 2}, "a": {"y": 3, "y": 4}}',
        '[{"a": 1, "a": 2}, {"b": {"c": 1, "c": 2}}]',
    ],
)
def test_a_key_written_twice_keeps_its_first_value_until_the_end(text: str) -> None:
    # json.loads keeps a repeated key's first place and last value; the partials show the
    # first value until the top value is complete, so they only grow before the last one.
    final = json.loads(text)
    values = values_at(list(text))
    assert values[-1] == final
    before_end = values[:-1]
    for index in range(1, len(before_end)):
        assert grows(before_end[index - 1], before_end[index]), before_end[index - 1 : index + 1]
