"""The adapter contract: category values, the end of a provider's stream, third-party
answers, and events that never change once emitted — over every adapter's fixtures."""

from __future__ import annotations

import copy
import json
import pickle
import warnings
from typing import Any

import openai
import pytest

from streamblocks import BlockRegistry, StreamBlockProcessor, collect
from streamblocks.adapters import (
    EventCategory,
    Reading,
    as_category,
    discovery,
    register_adapter,
)
from streamblocks.core.errors import AdapterWarning, ErrorCode
from streamblocks.core.events import EventType, StopReason
from streamblocks.ext.agui import AGUIOutputAdapter
from streamblocks.ext.codex_cli import CodexCLIInputAdapter
from streamblocks.ext.openai import OpenAIInputAdapter

from . import fixtures, test_anthropic, transcripts
from .sse import REPLY, sse


def registry() -> BlockRegistry:
    registry = BlockRegistry()
    registry.register("note")
    return registry


def visible(events: list[Any]) -> str:
    return "".join(e.text for e in events if e.type is EventType.TEXT_DELTA)


def adapter_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, AdapterWarning)]


# -- categories --------------------------------------------------------------------------


def test_category_values_are_the_documented_strings() -> None:
    assert {c.name: c.value for c in EventCategory} == {
        "TEXT_CONTENT": "text_content",
        "PASSTHROUGH": "passthrough",
        "SKIP": "skip",
        "STREAM_START": "stream_start",
        "STREAM_END": "stream_end",
    }
    assert EventCategory("text_content") is EventCategory.TEXT_CONTENT
    assert as_category("stream_end") is EventCategory.STREAM_END
    assert as_category("STREAM_END") is EventCategory.STREAM_END
    assert as_category("text") is None
    assert as_category(["skip"]) is None


class Minimal:
    """The minimal third-party adapter: plain strings for its answers."""

    def __init__(self, text: Any = "text_content") -> None:
        self.text = text

    def categorize(self, event: Any) -> Any:
        if isinstance(event, dict) and event.get("kind") == "token":
            return self.text
        if isinstance(event, dict) and event.get("kind") == "end":
            return "stream_end"
        return "skip"

    def extract_text(self, event: Any) -> str:
        return str(event["value"])


TOKENS = [
    {"kind": "token", "value": "Hi\n!!n1:no"},
    {"kind": "ping"},
    {"kind": "token", "value": "te\nbody\n!!end\nbye"},
]


@pytest.mark.parametrize(
    "answer", ["text_content", EventCategory.TEXT_CONTENT, "TEXT_CONTENT"], ids=repr
)
def test_a_minimal_adapter_answering_plain_values_keeps_its_text(answer: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = list(StreamBlockProcessor(registry(), input_adapter=Minimal(answer)).process(TOKENS))
    assert visible(out) == "Hi\nbye"
    assert [e.block.content for e in out if e.type is EventType.BLOCK_END] == ["body\n"]


def test_a_minimal_adapter_is_auto_detected_by_its_plain_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(discovery, "_registry", discovery.PluginRegistry())
    register_adapter(Minimal)
    out = list(StreamBlockProcessor(registry()).process(TOKENS))
    assert visible(out) == "Hi\nbye"


def test_an_answer_that_is_no_category_warns_once_and_the_stream_goes_on() -> None:
    events = [*TOKENS, {"kind": "token", "value": "more"}]
    adapter = Minimal(answer := "TEXT")  # not a value
    with pytest.warns(AdapterWarning) as caught:
        out = list(StreamBlockProcessor(registry(), input_adapter=adapter).process(events))
    messages = adapter_warnings(caught)
    assert len(messages) == 1
    assert repr(answer) in messages[0] and "'text_content'" in messages[0]
    # Passed through, so nothing is lost; the stream finished normally.
    assert [e.event for e in out if e.type is EventType.PASSTHROUGH] == [
        events[0],
        events[2],
        events[3],
    ]
    assert out[-1].type is EventType.STREAM_FINISHED


# -- the end of the provider's stream -------------------------------------------------------


def _open_block_body(after: list[tuple[str, dict[str, Any]]]) -> bytes:
    ev, delta = test_anthropic.ev, test_anthropic.delta
    events = [
        test_anthropic.message_start(input_tokens=3, output_tokens=1),
        ev("content_block_start", index=0, content_block={"type": "text", "text": ""}),
        delta(0, "text_delta", text="Hi\n!!b1:note\nstill open"),
        ev("content_block_start", index=1, content_block={"type": "thinking", "thinking": ""}),
        delta(1, "thinking_delta", thinking="hmm"),
        ev("message_delta", delta={"stop_reason": "max_tokens"}, usage={"output_tokens": 9}),
        ev("message_stop"),
        *after,
    ]
    return sse(events)


def test_stream_end_finishes_the_stream_and_later_events_are_ignored_once() -> None:
    late = [
        test_anthropic.delta(0, "text_delta", text="late text"),
        test_anthropic.ev("message_stop"),
    ]
    events = fixtures.anthropic_messages(_open_block_body(late))
    assert type(events[-3]).__name__ == "RawMessageStopEvent"
    with pytest.warns(AdapterWarning) as caught:
        out = list(StreamBlockProcessor(registry()).process(events))
    messages = adapter_warnings(caught)
    assert len(messages) == 1 and "STREAM_END" in messages[0]
    kinds = [e.type for e in out]
    assert kinds.count(EventType.STREAM_FINISHED) == 1 and kinds[-1] is EventType.STREAM_FINISHED
    errors = {(e.block_type, e.code) for e in out if e.type is EventType.BLOCK_ERROR}
    assert errors == {("note", ErrorCode.UNCLOSED)}
    # (the adapter closes what message_stop leaves open: thinking is complete)
    assert [e.block.content for e in out if e.type is EventType.BLOCK_END] == ["hmm"]
    assert "late" not in visible(out)
    assert out[-1].stop_reason is StopReason.max_tokens
    assert out[-1].usage.output_tokens == 9


def test_stream_end_in_the_sans_io_session() -> None:
    events = fixtures.anthropic_messages(_open_block_body([]))
    session = StreamBlockProcessor(registry()).session()
    out: list[Any] = []
    for event in events:
        out += session.feed(event)
    assert out[-1].type is EventType.STREAM_FINISHED
    with pytest.warns(AdapterWarning, match="STREAM_END"):
        assert session.feed(events[2]) == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # one warning only
        assert session.feed(events[2]) == []
    assert session.close() == []
    assert session.closed


def test_openai_done_sentinel_is_the_end_of_the_stream() -> None:
    adapter = OpenAIInputAdapter()
    assert adapter.categorize("[DONE]") is EventCategory.STREAM_END
    assert adapter.categorize(b"[DONE]\n") is EventCategory.STREAM_END
    chunks = fixtures.openai_chat()
    processor = StreamBlockProcessor(registry(), input_adapter=OpenAIInputAdapter())
    with pytest.warns(AdapterWarning, match="STREAM_END"):
        out = list(processor.process([*chunks, "[DONE]", chunks[3]]))
    assert visible(out) == "Voilà 👩\u200d💻 café!\nfin 🇫🇷 ok\n"
    assert [e.type for e in out].count(EventType.STREAM_FINISHED) == 1
    assert out[-1].stop_reason is StopReason.tool_use


def test_stream_start_resets_nothing() -> None:
    events = fixtures.anthropic_messages()
    start = events[0]
    text = [e for e in events if getattr(getattr(e, "delta", None), "type", "") == "text_delta"]
    # A second message_start in the middle of the reply: the block and ids carry on.
    stream = [start, *text[:4], start, *text[4:], events[-1]]
    out = list(StreamBlockProcessor(registry()).process(stream))
    assert [e.type for e in out].count(EventType.STREAM_STARTED) == 1
    ends = [e.block for e in out if e.type is EventType.BLOCK_END]
    assert [(b.id, b.content) for b in ends] == [("b1", "noté ✓ e\u0301\n")]
    assert visible(out) == REPLY.replace("!!b1:note\nnoté ✓ e\u0301\n!!end\n", "")
    assert out[-1].usage.input_tokens == 25


# -- emitted events never change ----------------------------------------------------------


@pytest.mark.parametrize("name", fixtures.NAMES)
def test_emitted_events_never_change(name: str) -> None:
    fixture = fixtures.fixture(name)
    processor = StreamBlockProcessor(registry(), input_adapter=fixture.adapter())
    seen: list[tuple[Any, Any]] = []
    for event in processor.process(fixture.events):
        seen.append((event, copy.deepcopy(event)))
    for event, snapshot in seen:
        assert event == snapshot
    # Consumers downstream (the AG-UI output, pickling, JSON) see them whole too.
    output = AGUIOutputAdapter().for_stream()
    for event, snapshot in seen:
        if event.type is EventType.PASSTHROUGH:
            output.passthrough(event.event)
        else:
            output.to_protocol_event(event)
        assert event == snapshot
        if event.type is not EventType.PASSTHROUGH:
            assert pickle.loads(pickle.dumps(event)) == event
    natives = [e for e, _ in seen if getattr(e, "syntax", None) == "native"]
    for start in natives:
        json.dumps(dict(start.attrs))


def test_a_block_start_keeps_the_attrs_it_was_sent_with() -> None:
    fixture = fixtures.fixture("anthropic")
    out = list(StreamBlockProcessor(registry()).process(fixture.events))
    start = next(e for e in out if e.type is EventType.BLOCK_START and e.block_type == "thinking")
    end = next(e for e in out if e.type is EventType.BLOCK_END and e.block_type == "thinking")
    assert dict(start.attrs) == {}  # the signature arrived later
    assert end.block.attrs == {"signature": "c2lnbmF0dXJl"}
    assert start.attrs is not end.block.attrs


def test_sdk_chunks_are_read_not_changed() -> None:
    chunks = fixtures.openai_chat()
    before = [c.model_dump() for c in chunks]
    list(StreamBlockProcessor(registry()).process(chunks))
    assert [c.model_dump() for c in chunks] == before
    assert isinstance(chunks[0], openai.types.chat.ChatCompletionChunk)


# -- the provider's session and run ids ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "session_id", "run_id"),
    [
        ("claude-tools", transcripts.SESSION, None),
        ("codex", transcripts.THREAD, None),
        ("agui", "t1", "r1"),
        ("anthropic", None, None),
    ],
)
def test_session_and_run_ids_reach_the_step_and_the_agui_run(
    name: str, session_id: str | None, run_id: str | None
) -> None:
    fixture = fixtures.fixture(name)
    processor = StreamBlockProcessor(registry(), input_adapter=fixture.adapter())
    out = list(processor.process(fixture.events))
    assert (out[0].session_id, out[0].run_id) == (session_id, run_id)
    assert (out[-1].session_id, out[-1].run_id) == (session_id, run_id)
    step = collect(fixture.events, processor=processor)
    assert (step.session_id, step.run_id) == (session_id, run_id)

    agui = list(processor.process(fixture.events, output_adapter=AGUIOutputAdapter()))
    started = [e for e in agui if e.type == "RUN_STARTED"]
    assert len(started) == 1
    # (without provider ids, each stream's own id, which differs from run to run)
    assert started[0].thread_id == session_id or session_id is None
    assert started[0].run_id == run_id or run_id is None
    finished = agui[-1]
    assert (finished.thread_id, finished.run_id) == (started[0].thread_id, started[0].run_id)


def test_ids_read_from_raw_transcript_chunks() -> None:
    text = transcripts.jsonl(transcripts.codex_run())
    processor = StreamBlockProcessor(registry(), input_adapter=CodexCLIInputAdapter())
    out = list(processor.process([text[:30], text[30:]]))
    assert out[0].session_id is None  # the first chunk did not hold a whole line
    assert out[-1].session_id == transcripts.THREAD
    agui = AGUIOutputAdapter(thread_id="mine")
    started = next(
        e for e in processor.process([text], output_adapter=agui) if e.type == "RUN_STARTED"
    )
    assert started.thread_id == "mine"


# -- one question per event ----------------------------------------------------------------


class Asked:
    """Wraps an adapter and counts what the session asks of it; ``read=False`` hides the
    adapter's ``read``, so the session asks each question."""

    QUESTIONS = ("categorize", "extract_text", "stop_reason", "usage", "native_events")

    def __init__(self, adapter: Any, *, read: bool) -> None:
        self.adapter = adapter
        self.counts: dict[str, int] = {}
        names = [*self.QUESTIONS, "error", "stream_ids", "frames", "end_frames"]
        if read:
            names.append("read")
        for name in names:
            method = getattr(adapter, name, None)
            if method is not None:
                setattr(self, name, self._counted(name, method))

    def _counted(self, name: str, method: Any) -> Any:
        def asked(*args: Any) -> Any:
            self.counts[name] = self.counts.get(name, 0) + 1
            return method(*args)

        return asked


@pytest.mark.parametrize("name", fixtures.NAMES)
def test_read_gives_what_the_questions_give_in_one_call(name: str) -> None:
    fixture = fixtures.fixture(name)
    found = {}
    for read in (True, False):
        asked = Asked(fixture.adapter().for_stream(), read=read)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            events = list(
                StreamBlockProcessor(registry(), input_adapter=asked).process(
                    copy.deepcopy(fixture.events)
                )
            )
        events[0] = events[0]._replace(stream_id="s")
        found[read] = (events, [str(w.message) for w in caught], asked.counts)
    (events, said, counts), (events_asked, said_asked, counts_asked) = found[True], found[False]
    assert events == events_asked and said == said_asked
    assert set(counts) - {"frames", "end_frames"} == {"read"}
    assert counts_asked["categorize"] >= counts["read"] > 0


class OwnStop(OpenAIInputAdapter):
    """A subclass answering one question itself: ``read`` asks it that one."""

    def stop_reason(self, event: Any) -> StopReason | None:
        return StopReason.refusal if super().stop_reason(event) is not None else None


def test_read_asks_a_question_a_subclass_answers_itself() -> None:
    events = fixtures.openai_chat()
    out = list(StreamBlockProcessor(registry(), input_adapter=OwnStop()).process(events))
    assert out[-1].stop_reason is StopReason.refusal


class Reads(Minimal):
    """A third-party adapter answering in one call; its ``read`` fails on ``"bad"``."""

    def read(self, event: Any) -> Reading:
        if event.get("value") == "bad":
            raise ValueError("cannot read this one")
        category = self.categorize(event)
        text = self.extract_text(event) if category == "text_content" else ""
        return Reading(
            category, text, stop=StopReason.end_turn if category == "stream_end" else None
        )


def test_a_third_party_read_is_the_one_question_and_a_failing_one_is_asked_again() -> None:
    events = [*TOKENS, {"kind": "token", "value": "bad"}, {"kind": "end"}]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = list(StreamBlockProcessor(registry(), input_adapter=Reads()).process(events))
    assert visible(out) == "Hi\nbyebad"  # the failed read asked again, question by question
    assert out[-1].stop_reason is StopReason.end_turn  # (what only read reports)
    assert caught == []  # the questions answered it: nothing to report
