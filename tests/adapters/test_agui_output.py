"""AG-UI output: framing, block events, run events, groups, per-stream state, SSE — and
the official ``@ag-ui/client`` (JS) parsing, verifying and rebuilding our stream."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from ag_ui import core
from ag_ui.encoder import EventEncoder
from pydantic import BaseModel, TypeAdapter

from streamblocks import BlockRegistry, GadgetSyntax, StreamBlockProcessor, XMLTagSyntax
from streamblocks.ext.agui import (
    GROUPS,
    SSE_MEDIA_TYPE,
    AGUIOutputAdapter,
    aencode_sse,
    agui_events,
    asse_body,
    encode_sse,
    sse_body,
)
from streamblocks.ext.agui.sse import event_json

from . import test_agui
from . import transcripts as t

MODES = ["sync", "async"]
EVENT = TypeAdapter(core.Event)
CLIENT_VERSION = "1.0.0"
V1 = hasattr(core, "SubagentStartedEvent")  # ag-ui-protocol 1.0 or newer: the 1.0 shape
JS_CLIENT = Path(__file__).parent / "js" / "agui_client.mjs"

TEXT = (
    "Hello 👋\n"
    "!!n1:note\nremember\n!!end\n"
    'Cite <cite source="doc">q</cite> now.\n'
    "!!!GADGET_START:Search\n!!!ARG:query\ncats\n!!!ARG:limit\n3\n!!!GADGET_END\n"
    "!!n2:note\nnever closed"
)


class Cite(BaseModel):
    source: str


def registry() -> BlockRegistry:
    reg = BlockRegistry()
    reg.register("note")
    reg.register("cite", syntax=XMLTagSyntax(), metadata=Cite)
    reg.register("Search", syntax=GadgetSyntax())
    return reg


def processor(**kwargs: Any) -> StreamBlockProcessor:
    kwargs.setdefault("output_adapter", AGUIOutputAdapter())
    return StreamBlockProcessor(registry(), **kwargs)


def chunks(text: str, size: int = 3) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def names(events: list[Any]) -> list[str]:
    return [e.type.value if e.type.value != "CUSTOM" else e.name for e in events]


def check_framing(events: list[Any]) -> None:
    """The rules every stream we emit keeps."""
    assert all(isinstance(e, core.BaseEvent) for e in events)
    assert events[0].type == core.EventType.RUN_STARTED
    assert events[-1].type in (core.EventType.RUN_FINISHED, core.EventType.RUN_ERROR)
    open_message = None
    seen_ids: set[str] = set()
    for event in events:
        kind = event.type
        if kind == core.EventType.TEXT_MESSAGE_START:
            assert open_message is None
            assert event.message_id not in seen_ids  # a new id after a block
            open_message = event.message_id
            seen_ids.add(open_message)
        elif kind == core.EventType.TEXT_MESSAGE_CONTENT:
            assert event.message_id == open_message
            assert event.delta != ""
        elif kind == core.EventType.TEXT_MESSAGE_END:
            assert event.message_id == open_message
            open_message = None
        elif kind in (
            core.EventType.CUSTOM,
            core.EventType.TOOL_CALL_START,
            core.EventType.REASONING_START,
        ):
            assert open_message is None, f"{kind} inside a text message"
        if kind == core.EventType.CUSTOM:
            json.dumps(event.value)  # JSON-serializable payloads
    assert open_message is None


def test_text_blocks_and_tool_calls() -> None:
    events = list(processor().process(chunks(TEXT)))
    check_framing(events)
    got = names(events)
    assert got[:3] == ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]
    assert "streamblocks.block_start" in got
    assert got.count("TOOL_CALL_START") == got.count("TOOL_CALL_END") == 1
    args = [e for e in events if e.type == core.EventType.TOOL_CALL_ARGS]
    # a gadget's arguments stream as its values arrive, and join to its argument JSON
    assert len(args) > 1
    assert json.loads("".join(e.delta for e in args)) == {"query": "cats", "limit": 3}
    start = next(e for e in events if e.type == core.EventType.TOOL_CALL_START)
    assert start.tool_call_name == "Search"
    ends = [e.value for e in events if getattr(e, "name", "") == "streamblocks.block_end"]
    cite = next(v for v in ends if v["type"] == "cite")
    assert cite["metadata"] == {"source": "doc"}  # the pydantic model, dumped
    assert cite["content"] == "q"
    error = next(e.value for e in events if getattr(e, "name", "") == "streamblocks.block_error")
    assert (error["block_id"], error["code"]) == ("n2", "UNCLOSED")
    assert events[-1].type == core.EventType.RUN_FINISHED
    assert events[-1].result["counts"]["errors"] == 1
    text = "".join(e.delta for e in events if e.type == core.EventType.TEXT_MESSAGE_CONTENT)
    assert text == "Hello 👋\nCite  now.\n"


def test_whole_and_chunked_give_the_same_blocks() -> None:
    def summary(events: list[Any]) -> list[Any]:
        return [
            (e.name, e.value)
            for e in events
            if getattr(e, "name", "") in ("streamblocks.block_end", "streamblocks.block_error")
        ]

    whole = list(processor().process([TEXT]))
    assert summary(whole) == summary(list(processor().process(chunks(TEXT, 1))))


def test_thinking_tools_results_and_usage_from_a_transcript() -> None:
    events = list(processor().process(t.claude_partial_run()))
    check_framing(events)
    got = names(events)
    reasoning = [n for n in got if n.startswith("REASONING")]
    assert reasoning == [
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_CONTENT",
        *(["REASONING_ENCRYPTED_VALUE"] if V1 else []),  # the thinking's signature (1.0)
        "REASONING_MESSAGE_END",
        "REASONING_END",
    ]
    if V1:
        signed = next(e for e in events if e.type == core.EventType.REASONING_ENCRYPTED_VALUE)
        start = next(e for e in events if e.type == core.EventType.REASONING_MESSAGE_START)
        assert (signed.subtype, signed.entity_id) == ("message", start.message_id)
        assert signed.encrypted_value == "sig1"
        assert events[0].protocol_version == core.PROTOCOL_VERSION == "1.0"
    args = "".join(e.delta for e in events if e.type == core.EventType.TOOL_CALL_ARGS)
    assert json.loads(args) == {"command": "pytest -q"}
    result = next(e for e in events if e.type == core.EventType.TOOL_CALL_RESULT)
    assert (result.tool_call_id, result.content) == ("toolu_bash", "3 passed")
    raw = [e.event["type"] for e in events if e.type == core.EventType.RAW]
    assert raw == ["system", "result"]
    finished = events[-1]
    assert finished.type == core.EventType.RUN_FINISHED
    assert finished.usage[0].input_tokens == 120
    assert finished.result["usage"]["cost_usd"] == 0.0421


def test_error_turn_is_run_error() -> None:
    events = list(processor().process(t.claude_error_run()))
    check_framing(events)
    assert events[-1] == core.RunErrorEvent(
        message="API Error: 529 overloaded", usage=events[-1].usage
    )


def test_agui_input_passes_through_without_duplicates() -> None:
    events = list(processor().process(test_agui.run_events()))
    check_framing(events)
    got = names(events)
    assert got.count("RUN_STARTED") == 1 and got.count("RUN_FINISHED") == 1
    assert (events[0].thread_id, events[0].run_id) == ("t1", "r1")  # the input's own
    assert events[-1].usage is not None and len(events[-1].usage) == 2  # untouched
    assert "STATE_DELTA" in got
    text = "".join(e.delta for e in events if e.type == core.EventType.TEXT_MESSAGE_CONTENT)
    assert text == "Voilà 👩\u200d💻 café!\nfin 🇫🇷 ok\n"

    wire = [json.loads(e.model_dump_json(by_alias=True)) for e in test_agui.run_events()]
    again = list(processor().process(wire))  # replayed JSON: the same stream
    assert names(again) == got


def test_agui_input_run_error_passes_through() -> None:
    sent = [
        core.RunStartedEvent(thread_id="t1", run_id="r1"),
        core.TextMessageChunkEvent(message_id="m3", delta="partial"),
        core.RunErrorEvent(message="model crashed", code="E1"),
    ]
    events = list(processor().process(sent))
    check_framing(events)
    assert events[-1] is sent[-1]
    assert names(events).count("RUN_ERROR") == 1


def test_groups_filter() -> None:
    only_text = list(processor(output_adapter=AGUIOutputAdapter(groups={"text"})).process([TEXT]))
    assert {e.type.value for e in only_text} == {
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
    }
    adapter = AGUIOutputAdapter(groups=GROUPS - {"blocks", "passthrough"})
    events = list(processor(output_adapter=adapter).process(t.claude_partial_run()))
    got = names(events)
    assert not any(
        n.startswith("streamblocks.block_") and n != "streamblocks.block_error" for n in got
    )
    assert "RAW" not in got and "TOOL_CALL_START" in got
    with pytest.raises(ValueError, match="unknown AG-UI event groups"):
        AGUIOutputAdapter(groups={"text", "sparkles"})


def test_one_adapter_serves_interleaved_streams() -> None:
    shared = processor()
    first = shared.process(chunks(TEXT, 2))
    second = shared.process(chunks("Other stream.\n" + TEXT, 5))
    a: list[Any] = []
    b: list[Any] = []
    for x, y in zip(first, second, strict=False):
        a.append(x)
        b.append(y)
    a.extend(first)
    b.extend(second)
    check_framing(a)
    check_framing(b)
    assert a[0].run_id != b[0].run_id


def test_per_call_output_adapter_and_fixed_ids() -> None:
    plain = StreamBlockProcessor(registry())
    adapter = AGUIOutputAdapter(thread_id="thread-9", run_id="run-9")
    events = list(plain.process(["hi"], output_adapter=adapter))
    assert (events[0].thread_id, events[0].run_id) == ("thread-9", "run-9")
    assert names(events) == [
        "RUN_STARTED",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "RUN_FINISHED",
    ]
    assert next(type(e).__name__ for e in plain.process(["hi"])) == "StreamStarted"
    converted = agui_events(list(plain.process(["hi"])), adapter)
    assert names(converted) == names(events)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("binary", [False, True])
async def test_sse_body(mode: str, binary: bool) -> None:
    source = chunks(TEXT, 4)
    if mode == "sync":
        parts = list(sse_body(processor(), source, binary=binary))
    else:

        async def items() -> Any:
            for item in source:
                yield item

        parts = [p async for p in asse_body(processor(), items(), binary=binary)]
    assert all(isinstance(p, bytes if binary else str) for p in parts)
    body = b"".join(parts).decode() if binary else "".join(parts)  # type: ignore[arg-type]
    messages = [m for m in body.split("\n\n") if m]
    assert all(m.startswith("data: ") for m in messages)
    decoded = [EVENT.validate_json(m[len("data: ") :]) for m in messages]
    check_framing(decoded)
    assert names(decoded) == names(list(processor().process(source)))
    assert SSE_MEDIA_TYPE == "text/event-stream"


async def test_encode_helpers() -> None:
    events = [core.RunStartedEvent(thread_id="t", run_id="r")]
    assert list(encode_sse(events)) == [EventEncoder().encode(events[0])]
    assert [p async for p in aencode_sse(events, binary=True)] == [
        EventEncoder().encode(events[0]).encode()
    ]


def _every_kind() -> list[Any]:
    """AG-UI events of every shape the adapter makes or passes through (usage models,
    raw provider events, AG-UI input with state deltas), and a few made by hand."""
    made = [
        *processor().process(chunks(TEXT)),
        *processor().process(t.claude_partial_run()),
        *processor().process(t.claude_error_run()),
        *processor().process(test_agui.run_events()),
    ]
    return [
        *made,
        core.CustomEvent(name="x", value={"n": None, "nan": float("nan"), "t": (1, "é\u2028")}),
        core.CustomEvent(name="x", value=None),
        core.RawEvent(event={"control": "\x00\x1f\x7f", 1: [1.5, True]}),
        core.TextMessageStartEvent(message_id="m", role="assistant", extra_field=1),
    ]


@pytest.mark.parametrize("event", _every_kind(), ids=lambda e: str(e.type.value))
def test_event_json_is_what_the_sdk_writes(event: Any) -> None:
    # The SDK's EventEncoder body, byte for byte (NaN, non-str keys, nested models).
    sdk = EventEncoder().encode(event)
    assert list(encode_sse([event])) == [sdk]
    assert f"data: {event_json(event)}\n\n" == sdk


# ---------------------------------------------------------------------- the JS client


def _cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "streamblocks-tests" / f"agui-client-{CLIENT_VERSION}"


@pytest.fixture(scope="session")
def agui_client() -> Path:
    """A directory where ``@ag-ui/client`` is installed (cached between runs).

    The package is installed into a fresh directory next to the cache entry and moved
    into place in one rename, so parallel test workers never see a half-installed one.
    """
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the official AG-UI client (JS) cannot run")
    where = _cache_dir()
    marker = where / "node_modules" / "@ag-ui" / "client" / "package.json"
    if not marker.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed: cannot install @ag-ui/client")
        where.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=where.name + ".", dir=where.parent))
        (staging / "package.json").write_text('{"private": true}\n')
        try:
            done = subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", f"@ag-ui/client@{CLIENT_VERSION}"],
                cwd=staging,
                capture_output=True,
                text=True,
                timeout=180,
            )
        except subprocess.TimeoutExpired:
            shutil.rmtree(staging, ignore_errors=True)
            pytest.skip("npm install @ag-ui/client timed out (no network?)")
        if done.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            pytest.skip(f"npm install @ag-ui/client failed (no network?): {done.stderr[-500:]}")
        try:
            staging.rename(where)
        except OSError:  # another worker was first, or a broken entry is in the way
            shutil.rmtree(staging, ignore_errors=True)
            if not marker.exists():
                shutil.rmtree(where, ignore_errors=True)
                pytest.skip(f"could not set up the @ag-ui/client cache in {where}")
    # The script must sit beside node_modules (ES modules resolve from their own path).
    script = where / JS_CLIENT.name
    code = JS_CLIENT.read_bytes()
    if not script.exists() or script.read_bytes() != code:
        temporary = where / f"{JS_CLIENT.name}.{os.getpid()}"
        temporary.write_bytes(code)
        os.replace(temporary, script)
    return where


def client_run(where: Path, body: bytes, tmp_path: Path, chunk: int = 5) -> dict[str, Any]:
    path = tmp_path / "body.sse"
    path.write_bytes(body)
    done = subprocess.run(
        ["node", JS_CLIENT.name, str(path), str(chunk)],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_official_client_accepts_a_transcript_stream(agui_client: Path, tmp_path: Path) -> None:
    reg = BlockRegistry()
    reg.register("note")
    body = b"".join(sse_body(StreamBlockProcessor(reg), t.claude_partial_run(), binary=True))
    got = client_run(agui_client, body, tmp_path)
    assert "verifyError" not in got and "agentError" not in got, got
    sent = [EVENT.validate_json(m[len("data: ") :]) for m in body.decode().split("\n\n") if m]
    assert [e["type"] for e in got["events"]] == [e.type.value for e in sent]
    assert got["agentEvents"] == [e.type.value for e in sent]
    messages = [{k: v for k, v in m.items() if k != "id"} for m in got["newMessages"]]
    assert messages == [
        {
            "role": "reasoning",
            "content": "The add() looks wrong.",
            **({"encryptedValue": "sig1"} if V1 else {}),  # its signature (1.0)
        },
        {
            "role": "assistant",
            "content": "Let me look at the code.\n",
            "toolCalls": [
                {
                    "id": "toolu_bash",
                    "type": "function",
                    "function": {"name": "Bash", "arguments": '{"command": "pytest -q"}'},
                }
            ],
        },
        {"role": "tool", "toolCallId": "toolu_bash", "content": "3 passed"},
        {"role": "assistant", "content": t.OUTRO},
    ]
    assert got["result"]["stop_reason"] == "end_turn"


def test_official_client_accepts_blocks_gadgets_and_errors(
    agui_client: Path, tmp_path: Path
) -> None:
    body = b"".join(sse_body(processor(), chunks(TEXT, 2), binary=True))
    got = client_run(agui_client, body, tmp_path, chunk=1)
    assert "verifyError" not in got and "agentError" not in got, got
    customs = [e["name"] for e in got["events"] if e["type"] == "CUSTOM"]
    assert "streamblocks.block_end" in customs and customs[-1] == "streamblocks.block_error"
    messages = [{k: v for k, v in m.items() if k != "id"} for m in got["newMessages"]]
    assert messages == [
        {"role": "assistant", "content": "Hello 👋\n"},
        {"role": "assistant", "content": "Cite "},
        {
            "role": "assistant",
            "content": " now.\n",
            "toolCalls": [
                {
                    "id": messages[2]["toolCalls"][0]["id"],
                    "type": "function",
                    "function": {"name": "Search", "arguments": '{"query": "cats", "limit": 3}'},
                }
            ],
        },
    ]


def test_official_client_accepts_agui_input_and_run_error(
    agui_client: Path, tmp_path: Path
) -> None:
    body = b"".join(sse_body(processor(), test_agui.run_events(), binary=True))
    got = client_run(agui_client, body, tmp_path)
    assert "verifyError" not in got and "agentError" not in got, got
    assert [e["type"] for e in got["events"]].count("RUN_STARTED") == 1

    failing = b"".join(sse_body(processor(), t.claude_error_run(), binary=True))
    got = client_run(agui_client, failing, tmp_path)
    assert got["events"][-1] == {
        "type": "RUN_ERROR",
        "message": "API Error: 529 overloaded",
        **({"usage": got["events"][-1]["usage"]} if "usage" in got["events"][-1] else {}),
    }
