"""A block whose closing line is in the chunk is read at once (``core/whole.py``): the
parts pinned here; ``test_differential`` compares it with the line step (``reference=True``)
feed by feed on these documents (``SHOWN_DOCUMENTS``) and the others."""

from __future__ import annotations

from hypothesis import strategies as st

from test_properties import DOCUMENTS, PROCESSOR


def test_a_whole_block_is_one_delta_and_closes_in_its_feed() -> None:
    text = "say\n!!b1:note\nline one\n!!not the end\nline two\n!!end  \nafter\n"
    session = PROCESSOR.session()
    events = session.feed(text)[1:]
    kinds = [e.type for e in events]
    assert kinds == [
        "TEXT_DELTA",
        "BLOCK_START",
        "BLOCK_METADATA",
        "BLOCK_DELTA",
        "BLOCK_END",
        "TEXT_DELTA",
    ]
    end = events[4].block  # type: ignore[attr-defined]
    assert end.raw == "!!b1:note\nline one\n!!not the end\nline two\n!!end  \n"
    assert (end.start, end.end) == (4, 4 + len(end.raw))
    assert end.content == "line one\n!!not the end\nline two\n"


SHOWN_LINES = st.sampled_from(
    [
        "def step(x):\n",
        "    return x + 1\n",
        "  ``\n",
        "   ```\n",
        "    ```\n",
        "```` \n",
        "~~~\n",
        "``` not a closer\n",
        "```\r\n",
        "!!b1:note\n",
        "---\n",
        "\n",
        " " * 30 + "```\n",
        "```" + " " * 30 + "\n",
    ]
)


@st.composite
def shown_fences(draw: st.DrawFn) -> str:
    """Code fences the model shows (their info string names no block type), with lines
    that are nearly closing fences, among prose and blocks."""
    fence = draw(st.sampled_from(["```", "````", "~~~"]))
    info = draw(st.sampled_from(["python", "", " js x", "text"]))
    body = "".join(draw(st.lists(SHOWN_LINES, max_size=6)))
    closer = draw(st.sampled_from([fence, fence + "`", fence + "  ", "", "  " + fence]))
    return f"{fence}{info}\n{body}" + (f"{closer}\n" if closer else "")


SHOWN_DOCUMENTS = st.lists(st.one_of(DOCUMENTS, shown_fences()), max_size=5).map("".join)


def test_a_shown_fence_in_hand_is_read_without_its_lines(monkeypatch: object) -> None:
    """The lines of a shown fence whose closing line is in the chunk are not asked about
    one by one: the fence is visible text up to its closing line."""
    from streamblocks.syntaxes.fences import ShownFence

    asked: list[str] = []
    original = ShownFence.on_line

    def on_line(self: ShownFence, line: str, complete: bool) -> object:
        asked.append(line)
        return original(self, line, complete)

    monkeypatch.setattr(ShownFence, "on_line", on_line)  # type: ignore[attr-defined]
    text = "see\n```python\ndef step(x):\n    return x + 1\n  ```\n```\nafter\n"
    events = PROCESSOR.session().feed(text)
    assert [e.text for e in events if e.type == "TEXT_DELTA"] == [text]
    assert asked == []
