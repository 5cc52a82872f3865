"""What a scanner knows of its syntaxes is built once per processor (``ScanPlan``): its
sessions share it, a registry change gives later sessions a new one, and a session
restored from a snapshot reads on with what it holds."""

from __future__ import annotations

from streamblocks import BlockRegistry, StreamBlockProcessor, XMLTagSyntax
from streamblocks.core.scan_plan import ScanPlan

TEXT = "a <cite id='c1'>x</cite> b\n!!n1:note\nhi\n!!end\n"


def _processor() -> tuple[BlockRegistry, StreamBlockProcessor]:
    registry = BlockRegistry()
    registry.register("note")
    registry.register("cite", syntax=XMLTagSyntax())
    return registry, StreamBlockProcessor(registry, input_adapter=None)


def _blocks(session: object, chunks: list[str]) -> list[str]:
    events = [event for chunk in chunks for event in session.feed(chunk)]  # type: ignore[attr-defined]
    events += session.close()  # type: ignore[attr-defined]
    return [event.block.type for event in events if event.type == "BLOCK_END"]


def test_the_sessions_of_a_processor_share_one_scan_plan() -> None:
    _, processor = _processor()
    first, second = processor.session(), processor.session()
    assert isinstance(first._scan.scanning, ScanPlan)
    assert first._scan.scanning is second._scan.scanning
    assert _blocks(first, [TEXT]) == _blocks(second, list(TEXT)) == ["cite", "note"]


def test_a_registry_change_gives_later_sessions_a_new_plan() -> None:
    registry, processor = _processor()
    before = processor.session()
    registry.register("task")
    after = processor.session()
    assert after._scan.scanning is not before._scan.scanning
    assert _blocks(after, ["!!t1:task\nx\n!!end\n"]) == ["task"]
    assert _blocks(before, ["!!t1:task\nx\n!!end\n"]) == []  # (its types were taken at start)


def test_a_restored_session_reads_on() -> None:
    _, processor = _processor()
    session = processor.session()
    session.feed(TEXT[:20])
    restored = processor.restore(session.snapshot())
    assert _blocks(restored, [TEXT[20:]]) == ["cite", "note"]
