"""``extract`` without ``--markup`` on a reply holding model markup says which family it
looks like, once, instead of showing raw markup as if it had worked."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import run
from streamblocks.markup.families import MarkupHint, sniff_family

QWEN = (
    "<think>The user wants the weather.</think>On it.\n"
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n'
    '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>\n'
)


def test_a_qwen_reply_without_markup_gets_one_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "reply.txt"
    path.write_text(QWEN, encoding="utf-8")
    code, out, err = run(capsys, "extract", "--chunk", "3", str(path))
    assert code == 0 and out.startswith(QWEN)  # shown as it is
    assert err == (
        f"streamblocks: warning: {path}: looks like qwen3 markup (<think>); "
        "try --markup auto, or --markup qwen3 when the stream names no model\n"
    )  # <think> came first; one hint for the whole reply


def test_with_markup_there_is_no_hint(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "reply.txt"
    path.write_text(QWEN, encoding="utf-8")
    code, _, err = run(capsys, "extract", "--markup", "qwen3", str(path))
    assert (code, err) == (0, "")


def test_plain_text_gets_no_hint(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "reply.txt"
    path.write_text("a <b>bold</b> reply, think about it\n", encoding="utf-8")
    assert run(capsys, "extract", str(path))[2] == ""


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("x<tool_call>GetWeather<arg_key>city</arg_key>", "glm"),
        ('[TOOL_CALLS][{"name": "f"}]', "mistral"),
        ("<|channel|>analysis<|message|>hm<|end|>", "gpt-oss"),
        ("<|tool_calls_section_begin|>", "kimi"),
        ("<\uff5ctool\u2581calls\u2581begin\uff5c>", "deepseek"),
        ("<|tool_call>call:f{}<tool_call|>", "gemma4"),
        ('<|python_tag|>{"name": "f"}', "llama"),
        ("<think>hm</think>ok", "qwen3"),
    ],
)
def test_each_family_is_recognised(text: str, family: str) -> None:
    found = sniff_family(text)
    assert found is not None and found[0] == family


def test_a_marker_split_across_chunks_is_seen() -> None:
    hint = MarkupHint()
    assert hint.feed("hello <tool_") is None
    assert hint.feed("call>{") is not None
    assert hint.feed("<tool_call>") is None  # once
