"""Per-family markup cases: the input and what our rules say comes out.

Inputs follow the vendors' format documentation, the harmony spec and the formats the
vLLM / SGLang parser tests exercise (as data); the expectations are written by the rules
in DESIGN.md ("Model markup"): visible text kept exactly, thinking stripped of its
surrounding blanks, a broken call one error, a call open at the end an unclosed error.

Each case: ``(family, text, expected)``, ``expected`` a dict with ``text``,
``thinking`` (list), ``calls`` (list of ``(name, arguments)`` or ``(name, arguments,
id)``), ``errors`` (list of ``(unclosed, raw)``); optional ``starts_in_thinking``,
``tools`` and ``cut`` (the stream stopped at ``max_tokens``).
"""

from __future__ import annotations

from typing import Any

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer"},
                "metric": {"type": "boolean"},
                "zip": {"type": "string"},
                "filters": {"type": "object"},
            },
        },
    },
}


def call_of(arguments: Any, attrs: Any) -> tuple[Any, ...]:
    """A call as the cases write it: ``(name, arguments)``, with the id when given."""
    return (attrs["name"], arguments, *([attrs["id"]] if "id" in attrs else []))


def found_outcome(
    text: list[str], thinking: list[Any], calls: list[Any], errors: list[Any], whole: list[str]
) -> dict[str, Any]:
    """What a stream gave, in the shape the cases expect (``whole``: every character)."""
    joined = {"text": "".join(text), "thinking": thinking, "calls": calls, "errors": errors}
    return {**joined, "whole": "".join(whole)}


def case(family: str, source: str, /, **expected: Any) -> tuple[str, str, dict[str, Any]]:
    found: dict[str, Any] = {"text": "", "thinking": [], "calls": [], "errors": []}
    found.update(expected)
    return family, source, found


HARMONY_CALL = '<|channel|>commentary to=functions.f <|constrain|>json<|message|>{"a": 1}'

CASES = [
    # qwen3 / hermes
    case(
        "qwen3",
        '<think>\nLook it up.\n</think>\n\nSure.\n<tool_call>\n{"name": "get_weather", '
        '"arguments": {"city": "Paris"}}\n</tool_call>',
        text="Sure.\n",
        thinking=["Look it up."],
        calls=[("get_weather", {"city": "Paris"})],
    ),
    case(
        "hermes",
        '<tool_call>{"name": "f", "arguments": "{\\"a\\": 1}"}</tool_call>after',
        text="after",
        calls=[("f", {"a": 1})],
    ),
    case(
        "qwen3",
        '<tool_call>{"name": "echo", "arguments": {"t": "a </tool_call> b"}}</tool_call>',
        calls=[("echo", {"t": "a </tool_call> b"})],
    ),
    case(
        "qwen3",
        '<tool_call>not json</tool_call>x<tool_call>{"name": "g", "arguments": {}}</tool_call>',
        text="x",
        calls=[("g", {})],
        errors=[(False, "<tool_call>not json</tool_call>")],
    ),
    case(
        "qwen3",
        'ok<tool_call>\n{"name": "g", "arguments": {"a": "b',
        text="ok",
        errors=[(True, '<tool_call>\n{"name": "g", "arguments": {"a": "b')],
    ),
    case(
        "qwen3",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
        "<parameter=days>\n3\n</parameter>\n<parameter=zip>\n02139\n</parameter>\n"
        "</function>\n</tool_call>",
        tools=[WEATHER_TOOL],
        calls=[("get_weather", {"city": "Paris", "days": 3, "zip": "02139"})],
    ),
    case(
        "qwen3",
        "I'll look.\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n"
        "</function>\n</tool_call> done",
        text="I'll look.\n done",
        calls=[("get_weather", {"city": "Oslo"})],
    ),
    case(
        "qwen3",
        "Thinking already.\n</think>\n\nAnswer.",
        starts_in_thinking=True,
        text="Answer.",
        thinking=["Thinking already."],
    ),
    case("qwen3", "<think>cut off", thinking=["cut off"]),
    case("qwen3", "a < b and <thin k> is text", text="a < b and <thin k> is text"),
    # deepseek
    case(
        "deepseek",
        "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"
        '```json\n{"city": "Tokyo"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function'
        "<｜tool▁sep｜>get_time\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
        text="Checking.",
        calls=[("get_weather", {"city": "Tokyo"}), ("get_time", {})],
    ),
    case(
        "deepseek",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"x": 1}<｜tool▁call▁end｜>'
        "<｜tool▁calls▁end｜> then",
        text=" then",
        calls=[("f", {"x": 1})],
    ),
    case(
        "deepseek",
        'Plan.</think>Go.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n'
        '<｜DSML｜parameter name="city" string="true">Zürich</｜DSML｜parameter>\n'
        '<｜DSML｜parameter name="days" string="false">2</｜DSML｜parameter>\n'
        '</｜DSML｜invoke>\n<｜DSML｜invoke name="submit"/>\n</｜DSML｜function_calls>',
        starts_in_thinking=True,
        thinking=["Plan."],
        text="Go.\n\n",
        calls=[("get_weather", {"city": "Zürich", "days": 2}), ("submit", {})],
    ),
    # kimi
    case(
        "kimi",
        "Done thinking.</think>On it.<|tool_calls_section_begin|><|tool_call_begin|>"
        'functions.get_weather:0<|tool_call_argument_begin|>{"city": "<|tool_call_end|>"}'
        "<|tool_call_end|><|tool_calls_section_end|>",
        starts_in_thinking=True,
        thinking=["Done thinking."],
        text="On it.",
        calls=[("get_weather", {"city": "<|tool_call_end|>"}, "functions.get_weather:0")],
    ),
    case(
        "kimi",
        "Plan<|close|>think<|sep|><|open|>response<|sep|>Sure.<|close|>response<|sep|>"
        '<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|>'
        '<|open|>argument key="days" type="number"<|sep|>3<|close|>argument<|sep|>'
        "<|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|>",
        starts_in_thinking=True,
        thinking=["Plan"],
        text="Sure.",
        calls=[("get_weather", {"days": 3})],
    ),
    # glm
    case(
        "glm",
        "\n<think>Need data.</think>\nLooking.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n"
        "<arg_value>Berlin</arg_value>\n<arg_key>metric</arg_key>\n<arg_value>true</arg_value>\n"
        "</tool_call>",
        tools=[WEATHER_TOOL],
        text="\nLooking.\n",
        thinking=["Need data."],
        calls=[("get_weather", {"city": "Berlin", "metric": True})],
    ),
    case(
        "glm",
        "<tool_call>f<arg_key>k</arg_key><arg_value>a </tool_call> b</arg_value></tool_call>",
        calls=[("f", {"k": "a </tool_call> b"})],
    ),
    # llama
    case(
        "llama",
        '{"name": "get_weather", "parameters": {"city": "Paris"}}',
        calls=[("get_weather", {"city": "Paris"})],
    ),
    case("llama", '{"capital": "Paris"} is the answer', text='{"capital": "Paris"} is the answer'),
    case(
        "llama",
        'Sure. <|python_tag|>{"name": "f", "parameters": {"a": "}"}}<|eom_id|>',
        text="Sure. ",
        calls=[("f", {"a": "}"})],
    ),
    case(
        "llama",
        "[get_weather(city='LA', days=2), get_time()]",
        calls=[("get_weather", {"city": "LA", "days": 2}), ("get_time", {})],
    ),
    case(
        "llama",
        "[f(x=__import__('os'))]",
        errors=[(False, "[f(x=__import__('os'))]")],
    ),
    # mistral
    case(
        "mistral",
        '[THINK]Hmm.[/THINK]Calling.[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Rome"}'
        "[TOOL_CALLS]get_time[ARGS]{}",
        text="Calling.",
        thinking=["Hmm."],
        calls=[("get_weather", {"city": "Rome"}, "a1b2c3d4e"), ("get_time", {})],
    ),
    case(
        "mistral",
        '[TOOL_CALLS] [{"name": "a", "arguments": {"s": "]"}}, {"name": "b", "arguments": {}}]',
        calls=[("a", {"s": "]"}), ("b", {})],
    ),
    # gemma4
    case(
        "gemma4",
        '<|channel>thought\nWeather.<channel|>Let me see. <|tool_call>call:get_weather{city:<|"|>'
        'Paris, "FR"<|"|>,days:2,tags:[<|"|>a<|"|>],more:{x:null}}<tool_call|> ok',
        thinking=["Weather."],
        text="Let me see.  ok",
        calls=[
            ("get_weather", {"city": 'Paris, "FR"', "days": 2, "tags": ["a"], "more": {"x": None}})
        ],
    ),
    # gpt-oss
    case(
        "gpt-oss",
        "<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>"
        "commentary<|message|>Checking.<|end|><|start|>assistant to=functions.get_weather"
        '<|channel|>commentary <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
        thinking=["Need weather."],
        text="Checking.",
        calls=[("get_weather", {"city": "Paris"})],
    ),
    case(
        "harmony",
        "<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>commentary "
        'to=functions.f <|constrain|>json<|message|>{"a": 1}',
        thinking=["Think."],
        calls=[("f", {"a": 1})],
    ),
    case(
        "gpt-oss",
        HARMONY_CALL,
        cut=True,
        errors=[(True, HARMONY_CALL)],
    ),
    case(
        "gpt-oss",
        "<|channel|>analysis<|message|>Hi.<|end|><|start|>assistant<|channel|>final<|message|>"
        "Hello!<|return|>",
        thinking=["Hi."],
        text="Hello!",
    ),
]

CASES.append(
    case(
        "glm",
        "<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value><arg_key>b</arg_key>"
        "<arg_value>two</tool_call>",
        calls=[("f", {"a": "1", "b": "two"})],
    )
)
NOT_A_CALL = '{"note": "not a call", "n": 1, "padding": "long enough to pass the name window"}'
CASES.append(
    case(
        "llama",
        NOT_A_CALL + ' and <|python_tag|>{"name": "f", "parameters": {}}',
        text=NOT_A_CALL + " and ",
        calls=[("f", {})],
    )
)

# -- the families of issue 38, as their chat templates and the engines' parser tests write
# them (vLLM minimax_m2 / seed_oss / hunyuan_a13b / hy_v3 / cohere_command /
# nemotron_nano_v2 / phi4mini / lfm2 parsers; llama.cpp's chat parsers)
CASES += [
    case(
        "minimax",
        "The user asks for weather.\n</think>\n\nLet me search for that.\n<minimax:tool_call>\n"
        '<invoke name="get_weather">\n<parameter name="city">Beijing</parameter>\n'
        '<parameter name="days">2</parameter>\n</invoke>\n<invoke name="noop">\n</invoke>\n'
        "</minimax:tool_call>",
        starts_in_thinking=True,
        tools=[WEATHER_TOOL],
        thinking=["The user asks for weather."],
        text="Let me search for that.\n",
        calls=[("get_weather", {"city": "Beijing", "days": 2}), ("noop", {})],
    ),
    case(
        "minimax",
        '<minimax:tool_call><invoke name="f"><parameter name="a">x',
        errors=[(True, '<minimax:tool_call><invoke name="f"><parameter name="a">x')],
    ),
    case(
        "seed",
        "<seed:think>Paris, three days.</seed:think>Checking.\n<seed:tool_call>\n"
        "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n"
        "</parameter>\n</function>\n</seed:tool_call><seed:eos>",
        tools=[WEATHER_TOOL],
        thinking=["Paris, three days."],
        text="Checking.\n",
        calls=[("get_weather", {"city": "Paris", "days": 3})],
    ),
    case(
        "hunyuan",
        "<think>\nLook it up.\n</think>\n<answer>\nOn it.\n<tool_calls>\n"
        '[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "g", "arguments": {}}]'
        "\n</tool_calls>\n</answer>",
        thinking=["Look it up."],
        text="On it.\n",
        calls=[("get_weather", {"city": "Paris"}), ("g", {})],
    ),
    case(
        "hunyuan",
        "<tool_calls:opensource><tool_call:opensource>get_weather<tool_sep:opensource>"
        "<arg_key:opensource>city</arg_key:opensource><arg_value:opensource>Paris"
        "</arg_value:opensource><arg_key:opensource>days</arg_key:opensource>"
        "<arg_value:opensource>2</arg_value:opensource></tool_call:opensource>"
        "<tool_call:opensource>g<tool_sep:opensource></tool_call:opensource>"
        "</tool_calls:opensource>",
        tools=[WEATHER_TOOL],
        calls=[("get_weather", {"city": "Paris", "days": 2}), ("g", {})],
    ),
    case(
        "hunyuan",
        "Sure.<tool_calls><tool_call>f<tool_sep><arg_key>a</arg_key><arg_value>1</arg_value>"
        "</tool_call></tool_calls>",
        text="Sure.",
        calls=[("f", {"a": "1"})],
    ),
    case(
        "command",
        "<|START_THINKING|>I will look it up.<|END_THINKING|><|START_ACTION|>[\n"
        '    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}},\n'
        '    {"tool_call_id": "1", "tool_name": "g", "parameters": {}}\n]<|END_ACTION|>',
        thinking=["I will look it up."],
        calls=[("get_weather", {"city": "Paris"}, "0"), ("g", {}, "1")],
    ),
    case(
        "command",
        "<|START_RESPONSE|>It is sunny in Paris.<|END_RESPONSE|>",
        text="It is sunny in Paris.",
    ),
    case(
        "nemotron",
        "Plan the call.\n</think>\n\n<TOOLCALL>"
        '[{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}]</TOOLCALL>',
        starts_in_thinking=True,
        thinking=["Plan the call."],
        calls=[("get_weather", {"city": "Paris", "days": 2})],
    ),
    case(
        "nemotron",
        '<TOOLCALL>[{"name": "f", "arguments": {"a": "]</TOOLCALL>"}}]</TOOLCALL>after',
        calls=[("f", {"a": "]</TOOLCALL>"})],
        text="after",
    ),
    case(
        "phi4",
        'functools[{"name": "get_weather", "arguments": {"city": "Paris", "days": [1, 2]}}, '
        '{"name": "g", "arguments": {}}]',
        calls=[("get_weather", {"city": "Paris", "days": [1, 2]}), ("g", {})],
    ),
    case(
        "phi4",
        'I will check. functools[{"name": "f", "arguments": {}}] Done.',
        text="I will check.  Done.",
        calls=[("f", {})],
    ),
    case(
        "lfm2",
        "<think>Use the tool.</think>Checking.<|tool_call_start|>"
        '[get_weather(city="Paris", days=2), g()]<|tool_call_end|>Done.<|im_end|>',
        thinking=["Use the tool."],
        text="Checking.Done.",
        calls=[("get_weather", {"city": "Paris", "days": 2}), ("g", {})],
    ),
]

# MiniMax M3: every tag behind the namespace token; values nested as elements, list
# items as <item> (the template's form; vLLM's minimax_m3 / llama.cpp's chat parser)
NS = "]<]minimax[>["
ORDER_TOOL = {
    "type": "function",
    "function": {
        "name": "order",
        "parameters": {
            "type": "object",
            "properties": {
                "qty": {"type": "integer"},
                "ship": {"type": "object", "properties": {"zip": {"type": "integer"}}},
                "items": {"type": "array", "items": {"type": "object"}},
                "tags": {"type": "array", "items": {"type": "string"}},
            },
        },
    },
}
CASES += [
    case(
        "minimax-m3",
        "<mm:think>Order it.</mm:think>On it.\n"
        f'{NS}<tool_call>\n{NS}<invoke name="order">{NS}<qty>2{NS}</qty>'
        f"{NS}<ship>{NS}<city>Paris{NS}</city>{NS}<zip>75001{NS}</zip>{NS}</ship>"
        f"{NS}<items>{NS}<item>{NS}<sku>a-1{NS}</sku>{NS}</item>{NS}<item>{NS}<sku>b-2"
        f"{NS}</sku>{NS}</item>{NS}</items>{NS}<tags>{NS}</tags>{NS}<note> as said {NS}</note>"
        f'{NS}</invoke>\n{NS}<invoke name="g">{NS}</invoke>\n{NS}</tool_call>',
        tools=[ORDER_TOOL],
        thinking=["Order it."],
        text="On it.\n",
        calls=[
            (
                "order",
                {
                    "qty": 2,
                    "ship": {"city": "Paris", "zip": 75001},
                    "items": [{"sku": "a-1"}, {"sku": "b-2"}],
                    "tags": [],
                    "note": " as said ",
                },
            ),
            ("g", {}),
        ],
    ),
    case(  # no schema: <item> elements are a list, other elements an object
        "minimax-m3",
        f'</mm:think>Sure.{NS}<tool_call>{NS}<invoke name="f">{NS}<a>{NS}<item>x{NS}</item>'
        f"{NS}<item>y{NS}</item>{NS}</a>{NS}<b>\n{NS}<c>1{NS}</c>\n{NS}</b>{NS}</invoke>"
        f"{NS}</tool_call>",
        text="Sure.",
        calls=[("f", {"a": ["x", "y"], "b": {"c": "1"}})],
    ),
    case(  # the prompt opened thinking (thinking_mode "enabled")
        "minimax-m3",
        "Plan.</mm:think>\n\nDone.",
        starts_in_thinking=True,
        thinking=["Plan."],
        text="Done.",
    ),
    case(
        "minimax-m3",
        f'{NS}<tool_call>{NS}<invoke name="f">{NS}<a>{NS}<b>1{NS}</a>{NS}</invoke>{NS}</tool_call>',
        errors=[
            (False, f'{NS}<tool_call>{NS}<invoke name="f">{NS}<a>{NS}<b>1{NS}</a>{NS}</invoke>'),
        ],
    ),
    case(
        "minimax-m3",
        f'{NS}<tool_call>{NS}<invoke name="f">{NS}<a>x',
        errors=[(True, f'{NS}<tool_call>{NS}<invoke name="f">{NS}<a>x')],
    ),
]
