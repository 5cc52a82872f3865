"""Resumable sessions: snapshot mid-stream, restore (in another process too), and the
events after the resume equal those of an uninterrupted run."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from helpers import normalise, run
from streamblocks import BlockRegistry, Limits, SnapshotError, StreamBlockProcessor

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))
import harness  # noqa: E402

DOCUMENT = (
    "Intro <think>plan\nthe steps</think> then\n"
    "!!b1:note\nline one\nline two\n!!end\n"
    "!!start\n---\nid: t1\nblock_type: task\n---\ntask body\n!!end\n"
    "```\n---\nid: c1\nblock_type: code\n---\nprint(1)\n```\n"
    "!!!GADGET_START:Calc\n!!!ARG:a\n15\n!!!ARG:b/0\nx\ny\n!!!GADGET_END\n"
    'cite <c id="k">q &amp; a</c> `<think>` !!p:point\nx: 3\n!!end\nunclosed <think>tail'
)


def _events_after(processor: StreamBlockProcessor, cut: int, via: str) -> tuple[Any, Any]:
    chunks = [DOCUMENT[i : i + 5] for i in range(0, len(DOCUMENT), 5)]
    whole = run(processor, chunks)
    session = processor.session()
    before: list[Any] = []
    for chunk in chunks[:cut]:
        before.extend(session.feed(chunk))
    if via == "snapshot":
        resumed = processor.restore(session.snapshot())
    else:
        resumed = pickle.loads(pickle.dumps(session))
    after: list[Any] = []
    for chunk in chunks[cut:]:
        after.extend(resumed.feed(chunk))
    after.extend(resumed.close())
    return whole, before + after


@pytest.mark.parametrize("via", ["snapshot", "pickle"])
@pytest.mark.parametrize("option", range(len(harness.PROCESSORS)))
def test_resuming_at_every_chunk_boundary_equals_an_uninterrupted_run(
    option: int, via: str
) -> None:
    processor = harness.PROCESSORS[option]
    for cut in range(-(-len(DOCUMENT) // 5) + 1):
        whole, resumed = _events_after(processor, cut, via)
        assert resumed[1:] == whole[1:], f"cut at chunk {cut}"  # stream ids differ


def test_a_snapshot_resumes_in_another_process(tmp_path: Path) -> None:
    processor = harness.PROCESSORS[0]
    cut = len(DOCUMENT) // 2
    session = processor.session("s-1")
    before = session.feed(DOCUMENT[:cut])
    (tmp_path / "snap").write_bytes(session.snapshot())
    (tmp_path / "rest").write_text(DOCUMENT[cut:], encoding="utf-8", errors="surrogatepass")
    script = textwrap.dedent(
        f"""
        import pickle, sys
        sys.path.insert(0, {str(FUZZ)!r})
        import harness
        processor = harness.PROCESSORS[0]
        session = processor.restore(open({str(tmp_path / "snap")!r}, "rb").read())
        rest = open({str(tmp_path / "rest")!r}, encoding="utf-8").read()
        events = [e for ch in rest for e in session.feed(ch)] + session.close()
        sys.stdout.buffer.write(pickle.dumps(events))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, check=True, timeout=60
    )
    after = pickle.loads(done.stdout)
    whole = run(processor, [DOCUMENT])
    assert normalise(before + after) == normalise(whole)
    assert session.stream_id == "s-1"


def _lambda_processor(limits: Limits | None = None) -> StreamBlockProcessor:
    registry = BlockRegistry()
    registry.register("note", validators=[lambda block: "bad" not in block.content])
    return StreamBlockProcessor(registry, input_adapter=None, limits=limits)


def test_hooks_need_not_be_picklable_for_snapshots() -> None:
    processor = _lambda_processor()
    session = processor.session()
    session.feed("!!b1:note\nthis is ba")
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(session)  # a lambda cannot be pickled by value...
    resumed = _lambda_processor().restore(session.snapshot())  # ...nor needs to be
    events = resumed.feed("d\n!!end\n") + resumed.close()
    assert [e.code.value for e in events if e.type.value == "BLOCK_ERROR"] == ["VALIDATION_FAILED"]


def test_a_differently_configured_processor_refuses_the_snapshot() -> None:
    session = _lambda_processor().session()
    session.feed("!!b1:note\nx")
    data = session.snapshot()
    with pytest.raises(SnapshotError, match="configured differently"):
        _lambda_processor(Limits(max_block_chars=100)).restore(data)
    with pytest.raises(SnapshotError, match="configured differently"):
        harness.PROCESSORS[0].restore(data)
    with pytest.raises(SnapshotError, match="not a streamblocks snapshot"):
        _lambda_processor().restore(b"garbage")


def test_another_library_version_refuses_the_snapshot() -> None:
    import pickle

    data = _lambda_processor().session().snapshot()
    size = int.from_bytes(data[:4], "big")
    magic, version, _library, described = pickle.loads(data[4 : 4 + size])
    head = pickle.dumps((magic, version, "99.0", described), protocol=4)
    older = len(head).to_bytes(4, "big") + head + data[4 + size :]
    with pytest.raises(SnapshotError, match="only restored by the version"):
        _lambda_processor().restore(older)


def test_a_session_with_an_adapter_and_transforms_resumes() -> None:
    from streamblocks.ext.openai import OpenAIInputAdapter

    registry = BlockRegistry()
    registry.register("note")
    processor = StreamBlockProcessor(registry, input_adapter=OpenAIInputAdapter())
    chunks = [
        {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": t}}]}
        for t in ["a\n!!b1:", "note\nx", "\n!!end\nz"]
    ]
    whole = run(processor, chunks)
    session = processor.session()
    first = session.feed(chunks[0])
    resumed = processor.restore(session.snapshot())
    rest = [e for chunk in chunks[1:] for e in resumed.feed(chunk)] + resumed.close()
    assert normalise(first + rest) == normalise(whole)
