"""The engines' own parser tests as a corpus (issue 38, item 5).

The inputs are the model outputs that vLLM's tool and reasoning parser tests
(``tests/tool_parsers``, ``tests/reasoning``), SGLang's function-call detectors and
llama.cpp's chat parsers exercise for the families read here, written out again; the
expected parses are ours, by the rules of docs/markup.md. Where an engine expects
something else, the case's comment says what and why: the model's chat template, or a
rule of ours, decides. Every case is read whole, one character per chunk and in
random chunkings, and must give the same answer each time.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from streamblocks import BlockEnd, BlockError, BlockRegistry, StreamBlockProcessor, TextDelta
from streamblocks.markup import Markup

NS = "]<]minimax[>["
ORDER = {
    "type": "function",
    "function": {
        "name": "create_order",
        "parameters": {
            "type": "object",
            "properties": {
                "user_id": {"type": "integer"},
                "urgent": {"type": "boolean"},
                "note": {"type": "string"},
                "shipping": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "zip": {"type": "integer"}},
                },
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
                    },
                },
                "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
                "duplicate_demo": {"type": "object"},
            },
        },
    },
}


def order(user_id: int) -> str:
    return f'{NS}<invoke name="create_order">{NS}<user_id>{user_id}{NS}</user_id>{NS}</invoke>'


ORDER_CALL = (
    f'{NS}<tool_call>\n{NS}<invoke name="create_order">{NS}<user_id>42{NS}</user_id>'
    f"{NS}<urgent>true{NS}</urgent>{NS}<note>Please leave at front desk.{NS}</note>"
    f"{NS}<shipping>{NS}<city>Singapore{NS}</city>{NS}<zip>018956{NS}</zip>{NS}</shipping>"
    f"{NS}<items>{NS}<item>{NS}<sku>book-001{NS}</sku>{NS}<qty>2{NS}</qty>{NS}</item>"
    f"{NS}<item>{NS}<sku>pen-007{NS}</sku>{NS}<qty>5{NS}</qty>{NS}</item>{NS}</items>"
    f"{NS}<metadata>{NS}<source>mobile{NS}</source>{NS}<campaign>may-launch{NS}</campaign>"
    f"{NS}</metadata>{NS}<duplicate_demo>{NS}<tag>a{NS}</tag>{NS}<tag>b{NS}</tag>"
    f"{NS}</duplicate_demo>{NS}</invoke>\n{NS}</tool_call>"
)
SEED_BUDGET = (
    "<seed:think>\n</seed:cot_budget_reflect>\n</seed:cot_budget_reflect>\nThe current thinking "
    "budget is 0, so I will directly start answering the question.\n</seed:think>\n"
)
SEED_CALL = (
    "<seed:tool_call>\n<function=get_weather>\n<parameter=location>Barcelona, Spain"
    "</parameter>\n</function>\n</seed:tool_call>"
)
COHERE_ACTION = (
    "<|START_THINKING|> i will call foo with query1<|END_THINKING|><|START_ACTION|>\n[\n"
    '    {"tool_call_id": "0", "tool_name": "foo", "parameters": {"query": "query1"}},\n'
    '    {"tool_call_id": "1", "tool_name": "bar", "parameters": {"x": 42}}\n]\n<|END_ACTION|>'
)


def case(
    source: str,
    family: str,
    text: str,
    *,
    markup: dict[str, Any] | None = None,
    shown: str = "",
    thinking: list[str] | None = None,
    calls: list[tuple[str, dict[str, Any]]] | None = None,
    unclosed: int = 0,
) -> Any:
    """One case: where it comes from, the reply, and what we read from it."""
    expected = (shown, thinking or [], calls or [], unclosed)
    return pytest.param(family, text, markup or {}, expected, id=source)


CASES = [
    # -- MiniMax M3 (vLLM tests/tool_parsers/test_minimax_m3_tool_parser.py)
    case(
        "vllm-m3-nested-call",
        "minimax-m3",
        "I will create it.\n" + ORDER_CALL,
        markup={"tools": [ORDER]},
        shown="I will create it.\n",
        calls=[
            (
                "create_order",
                {
                    "user_id": 42,
                    "urgent": True,
                    "note": "Please leave at front desk.",
                    # vLLM reads 18956: a leading zero is no integer here (docs/markup.md,
                    # "Values written as text"), so the zip code keeps its digits
                    "shipping": {"city": "Singapore", "zip": "018956"},
                    "items": [{"sku": "book-001", "qty": 2}, {"sku": "pen-007", "qty": 5}],
                    "metadata": {"source": "mobile", "campaign": "may-launch"},
                    "duplicate_demo": {"tag": ["a", "b"]},
                },
            )
        ],
    ),
    case(
        "vllm-m3-parallel-invokes",
        "minimax-m3",
        f"{NS}<tool_call>\n{order(1)}\n{order(2)}\n{NS}</tool_call>",
        markup={"tools": [ORDER]},
        calls=[("create_order", {"user_id": 1}), ("create_order", {"user_id": 2})],
    ),
    case("vllm-m3-plain", "minimax-m3", "plain response", shown="plain response"),
    case(  # the start of a call token that never completes is text
        "vllm-m3-partial-opener",
        "minimax-m3",
        f"plain {NS}<tool_ca",
        shown=f"plain {NS}<tool_ca",
    ),
    case(  # vLLM shows the unfinished second call as text; a call open at the end is an
        # error that keeps its raw here (docs/markup.md, "Rules")
        "vllm-m3-cut-second-call",
        "minimax-m3",
        f'plain {NS}<tool_call>\n{order(1)}\n{NS}<invoke name="create_order">{NS}<user_id>2',
        markup={"tools": [ORDER]},
        shown="plain ",
        calls=[("create_order", {"user_id": 1})],
        unclosed=1,
    ),
    case(  # text in a section that is no call stays visible; the section's marker not
        "vllm-m3-stray-closer",
        "minimax-m3",
        f"{NS}<tool_call>\n{NS}</user_id> after error",
        shown=f"\n{NS}</user_id> after error",
    ),
    # -- MiniMax M3 thinking (vLLM tests/reasoning/test_minimax_m3_reasoning_parser.py)
    case(
        "vllm-m3-think",
        "minimax-m3",
        "<mm:think>plan</mm:think>answer",
        shown="answer",
        thinking=["plan"],
    ),
    case("vllm-m3-leading-closer", "minimax-m3", "</mm:think>answer", shown="answer"),
    case(  # vLLM keeps a closer that does not lead as content: it is markup wherever it
        # stands (the template's adaptive turn writes it), never visible text here
        "vllm-m3-inner-closer",
        "minimax-m3",
        "XXX</mm:think>YYY",
        shown="XXXYYY",
    ),
    case(
        "vllm-m3-enabled-mode",
        "minimax-m3",
        "plan</mm:think>answer",
        markup={"starts_in_thinking": True},
        shown="answer",
        thinking=["plan"],
    ),
    case(
        "vllm-m3-open-think", "minimax-m3", "<mm:think>still thinking", thinking=["still thinking"]
    ),
    # -- MiniMax M2 (vLLM tests/tool_parsers/test_minimax_m2_tool_parser.py)
    case(
        "vllm-m2-content-before",
        "minimax",
        'Let me check. <minimax:tool_call><invoke name="get_weather"><parameter name="city">'
        "Seattle</parameter></invoke></minimax:tool_call>",
        shown="Let me check. ",
        calls=[("get_weather", {"city": "Seattle"})],
    ),
    case(
        "vllm-m2-two-invokes",
        "minimax",
        '<minimax:tool_call><invoke name="fn_a"><parameter name="x">1</parameter></invoke>'
        '<invoke name="fn_b"><parameter name="y">2</parameter></invoke></minimax:tool_call>',
        calls=[("fn_a", {"x": "1"}), ("fn_b", {"y": "2"})],
    ),
    # -- Seed-OSS (vLLM tests/tool_parsers/test_seed_oss_tool_parser.py): vLLM's tool
    # parser leaves the thinking in its content (its reasoning parser takes it); the
    # budget reflections the model writes inside thinking stay thinking text
    case(
        "vllm-seed-budget-0",
        "seed",
        SEED_BUDGET + SEED_CALL,
        thinking=[
            "</seed:cot_budget_reflect>\n</seed:cot_budget_reflect>\nThe current thinking "
            "budget is 0, so I will directly start answering the question."
        ],
        calls=[("get_weather", {"location": "Barcelona, Spain"})],
    ),
    case(  # a call drafted inside thinking is thinking text
        "vllm-seed-call-in-thinking",
        "seed",
        "<seed:think>The format is " + SEED_CALL + ". Go.</seed:think>" + SEED_CALL,
        thinking=["The format is " + SEED_CALL + ". Go."],
        calls=[("get_weather", {"location": "Barcelona, Spain"})],
    ),
    # -- Hunyuan-A13B (vLLM tests/tool_parsers/test_hunyuan_a13b_tool_parser.py)
    case(  # vLLM drops the text after the calls: it is visible text here
        "vllm-hunyuan-text-after",
        "hunyuan",
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Seattle"}}]</tool_calls>'
        "\nThank you!",
        shown="\nThank you!",
        calls=[("get_weather", {"city": "Seattle"})],
    ),
    case(
        "vllm-hunyuan-empty-args-first",
        "hunyuan",
        '<tool_calls>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 42}}]'
        "</tool_calls>",
        calls=[("a", {}), ("b", {"x": 42})],
    ),
    case(
        "vllm-hunyuan-answer-close",
        "hunyuan",
        '<tool_calls>[{"name": "get_weather", "arguments": {"city": "北京"}}]</tool_calls>'
        "\n</answer>",
        calls=[("get_weather", {"city": "北京"})],
    ),
    # -- Command A / R7B (vLLM tests/tool_parsers/test_cohere_command_tool_parser.py)
    case(
        "vllm-cohere-two-calls",
        "command",
        COHERE_ACTION,
        thinking=["i will call foo with query1"],
        calls=[("foo", {"query": "query1"}), ("bar", {"x": 42})],
    ),
    case(  # vLLM removes the citation markers; they hold the sources' indices, which
        # only the text carries, so they stay as the model wrote them
        "vllm-cohere-citations",
        "command",
        "<|START_THINKING|>A rainbow <co>emoji: 🌈</co: 0:[1]><|END_THINKING|>\n"
        "<|START_RESPONSE|>foo <co>bar</co: 0:[1,2],1:[3,4]><|END_RESPONSE|>",
        shown="foo <co>bar</co: 0:[1,2],1:[3,4]>",
        thinking=["A rainbow <co>emoji: 🌈</co: 0:[1]>"],
    ),
    case(
        "vllm-cohere-reasoning-only",
        "command",
        "<|START_THINKING|>just think, no response<|END_THINKING|>",
        thinking=["just think, no response"],
    ),
]


# -- LFM2 / LFM2.5 (vLLM tests/tool_parsers/test_lfm2_tool_parser.py)
def lfm2(calls: str, after: str = "") -> str:
    return f"<|tool_call_start|>[{calls}]<|tool_call_end|>" + (f"\n{after}" if after else "")


CASES += [
    case(
        "vllm-lfm2-more-types",
        "lfm2",
        lfm2(
            "register_user(name='John Doe', age=37, address={'city': 'San Francisco', "
            "'state': 'CA'}, role=None, passed_test=True, aliases=['John', 'Johnny'])"
        ),
        calls=[
            (
                "register_user",
                {
                    "name": "John Doe",
                    "age": 37,
                    "address": {"city": "San Francisco", "state": "CA"},
                    "role": None,
                    "passed_test": True,
                    "aliases": ["John", "Johnny"],
                },
            )
        ],
    ),
    case(
        "vllm-lfm2-text-after",
        "lfm2",
        lfm2("get_candidate_status(candidate_id='12345')", "Checking candidate 12345."),
        shown="\nChecking candidate 12345.",
        calls=[("get_candidate_status", {"candidate_id": "12345"})],
    ),
    case(
        "vllm-lfm2-escapes",
        "lfm2",
        lfm2(r"get_weather(city='Martha\'s Vineyard', metric='\"cool units\"')"),
        calls=[("get_weather", {"city": "Martha's Vineyard", "metric": '"cool units"'})],
    ),
    case(
        "vllm-lfm2-bracket-in-string",
        "lfm2",
        lfm2("exec(command='grep -F \"]\" log.txt')"),
        calls=[("exec", {"command": 'grep -F "]" log.txt'})],
    ),
    case(  # the model called no tool: the empty list is framing, no call and no error
        "vllm-lfm2-empty-list",
        "lfm2",
        "Nothing to call." + lfm2(" "),
        shown="Nothing to call.",
    ),
    case(  # a set literal is a JSON array, in the order written
        "vllm-lfm2-set",
        "lfm2",
        lfm2("label(tags={'urgent', 'bug'})"),
        calls=[("label", {"tags": ["urgent", "bug"]})],
    ),
    case(  # a dotted tool name (BFCL's) is the name as written
        "vllm-lfm2-dotted-name",
        "lfm2",
        lfm2("grocery.orderIngredients(items=[{'name': 'noodles', 'amount': 250}], to='Lane 8')"),
        calls=[
            (
                "grocery.orderIngredients",
                {"items": [{"name": "noodles", "amount": 250}], "to": "Lane 8"},
            )
        ],
    ),
    case(  # a raw newline and a NUL inside a string: the model's multi-line shell
        # command, read as the string it means (Python's parser refuses both)
        "vllm-lfm2-raw-newline-and-nul",
        "lfm2",
        lfm2("exec(command='cat > f.py << EOF\nprint(1)\nEOF'), exec(command='printf a\x00b')"),
        calls=[
            ("exec", {"command": "cat > f.py << EOF\nprint(1)\nEOF"}),
            ("exec", {"command": "printf a\x00b"}),
        ],
    ),
]
# -- Nemotron Nano v2 (vLLM tests/tool_parsers/test_nemotron_nano_v2_tool_parser.py) and
# Phi-4-mini (vLLM tests/tool_parsers/test_phi4mini_tool_parser.py)
CASES += [
    case(  # one call written as an object, not an array of one
        "vllm-nemotron-single-object",
        "nemotron",
        '<TOOLCALL>{"name": "lookup", "arguments": {"query": "vllm"}}</TOOLCALL>',
        calls=[("lookup", {"query": "vllm"})],
    ),
    case(
        "vllm-nemotron-string-arguments",
        "nemotron",
        '<TOOLCALL>[{"name": "run_query", "arguments": "{\\"sql\\": \\"select 1\\"}"}]</TOOLCALL>',
        calls=[("run_query", {"sql": "select 1"})],
    ),
    case(  # vLLM keeps the <think> block in the content (its reasoning parser takes it)
        "vllm-nemotron-think",
        "nemotron",
        "<think>\nI need the weather for Tokyo.\n</think>\n"
        '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</TOOLCALL>',
        thinking=["I need the weather for Tokyo."],
        calls=[("get_weather", {"city": "Tokyo"})],
    ),
    case(  # vLLM drops the text around the calls: it is visible text here
        "vllm-phi4-surrounding-text",
        "phi4",
        "Let me check the weather for you.\n"
        'functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]\n'
        "Would you like to know more?",
        shown="Let me check the weather for you.\n\nWould you like to know more?",
        calls=[("get_weather", {"city": "Tokyo"})],
    ),
    case(  # an empty list: no call, the text after it visible (it was swallowed unclosed)
        "vllm-phi4-empty",
        "phi4",
        "functools[] This is just text",
        shown=" This is just text",
    ),
]
# vLLM also reads month=07 as 7 and repairs 'sed -n '360,450p' f' (quotes of the string's
# own kind inside it): neither is Python, and guessing would change a zip code or a
# shell command, so both stay broken calls that tell the model why.


def read(family: str, markup: dict[str, Any], chunks: list[str]) -> tuple[Any, ...]:
    processor = StreamBlockProcessor(BlockRegistry(), markup=Markup(family, **markup))
    shown, thinking, calls, unclosed = [], [], [], 0
    for event in processor.process(chunks):
        if isinstance(event, TextDelta):
            shown.append(event.text)
        elif isinstance(event, BlockEnd) and event.block.type == "thinking":
            thinking.append(event.block.content)
        elif isinstance(event, BlockEnd):
            calls.append((event.block.attrs["name"], event.block.content))
        elif isinstance(event, BlockError):
            assert event.code.value == "UNCLOSED", event
            unclosed += 1
    return "".join(shown), thinking, calls, unclosed


@pytest.mark.parametrize(("family", "text", "markup", "expected"), CASES)
def test_engine_case(family: str, text: str, markup: dict[str, Any], expected: Any) -> None:
    rng = random.Random(len(text))
    cuts = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, 9)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    for chunks in ([text], list(text), pieces):
        assert read(family, markup, chunks) == expected, chunks
