"""System prompts for XML tags, and inject_system_prompt."""

from __future__ import annotations

import copy
import json

from pydantic import BaseModel, Field

from streamblocks import BlockRegistry, DelimiterPreambleSyntax, XMLTagSyntax

XML = XMLTagSyntax()

EXPECTED = """You can use the following XML tags in your output:
- <interpretation>: Analytical insight derived from evidence.
  Use when synthesizing information or drawing conclusions. Do not use for direct observations.
- <done>: Signals task completion."""


def issue_registry() -> BlockRegistry:
    registry = BlockRegistry()
    registry.register(
        "interpretation",
        syntax=XML,
        description="Analytical insight derived from evidence.",
        instructions=(
            "Use when synthesizing information or drawing conclusions. "
            "Do not use for direct observations."
        ),
    )
    registry.register("silent", syntax=XML)
    registry.register("done", syntax=XML, description="Signals task completion.")
    return registry


def test_listing_is_exact() -> None:
    assert issue_registry().system_prompt() == EXPECTED


def test_instructions_alone_are_one_line() -> None:
    registry = BlockRegistry()
    registry.register("todo", syntax=XML, instructions="List open tasks.")
    registry.register("debugInfo", tag="debug-info", syntax=XML, description="Debug.")
    assert registry.system_prompt() == (
        "You can use the following XML tags in your output:\n"
        "- <todo>: List open tasks.\n"
        "- <debug-info>: Debug."
    )


def test_types_without_text_give_no_section() -> None:
    registry = BlockRegistry()
    registry.register("silent", syntax=XML)
    assert registry.system_prompt() == ""


def test_every_syntax_is_covered_in_registration_order() -> None:
    registry = issue_registry()
    registry.register("note", syntax=DelimiterPreambleSyntax(), description="A note.")
    prompt = registry.system_prompt()
    assert prompt.startswith(EXPECTED + "\n\n")
    assert "- note: A note." in prompt


class Cite(BaseModel):
    url: str = Field(description="The source URL.")
    page: int | None = None


class Plan(BaseModel):
    steps: list[str] = Field(description="What to do, in order.")


def test_models_show_fields_and_schema() -> None:
    registry = BlockRegistry()
    registry.register("citation", syntax=XML, description="A quote.", metadata=Cite)
    registry.register("plan", syntax=XML, description="A plan.", content=Plan)
    prompt = registry.system_prompt()
    lines = prompt.splitlines()
    assert lines[1] == "- <citation>: A quote."
    assert lines[2] == (
        "  Attributes: url (str): The source URL.; page (int | None, optional, default null)"
    )
    assert lines[3] == "- <plan>: A plan."
    assert lines[4] == "  Content: steps (list[str]): What to do, in order."
    assert lines[5].startswith("  JSON schema: ")
    schema = json.loads(lines[5].removeprefix("  JSON schema: "))
    assert schema["properties"]["steps"]["type"] == "array"


def test_inject_openai_style_appends_to_last_system_message() -> None:
    messages = [
        {"role": "system", "content": "First."},
        {"role": "user", "content": "hi"},
        {"role": "system", "content": "Be brief."},
    ]
    before = copy.deepcopy(messages)
    result = issue_registry().inject_system_prompt(messages)
    assert messages == before
    assert result[2] == {"role": "system", "content": "Be brief.\n\n" + EXPECTED}
    assert result[0] == messages[0]
    assert result[1] is not messages[1]


def test_inject_content_parts_are_copied_not_mutated() -> None:
    parts = [{"type": "text", "text": "Rules."}]
    messages = [{"role": "system", "content": parts}, {"role": "user", "content": "hi"}]
    result = issue_registry().inject_system_prompt(messages)
    assert parts == [{"type": "text", "text": "Rules."}]
    assert result[0]["content"] == [
        {"type": "text", "text": "Rules."},
        {"type": "text", "text": EXPECTED},
    ]


def test_inject_developer_role() -> None:
    messages = [{"role": "developer", "content": "Dev."}, {"role": "user", "content": "hi"}]
    result = issue_registry().inject_system_prompt(messages)
    assert result[0]["content"] == "Dev.\n\n" + EXPECTED
    assert len(result) == 2


def test_inject_creates_a_system_message_for_anthropic_style_lists() -> None:
    messages = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    result = issue_registry().inject_system_prompt(messages)
    assert result == [{"role": "system", "content": EXPECTED}, messages[0]]
    assert len(messages) == 1


def test_inject_into_empty_system_content() -> None:
    result = issue_registry().inject_system_prompt([{"role": "system", "content": None}])
    assert result == [{"role": "system", "content": EXPECTED}]
