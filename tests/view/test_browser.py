"""The page in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

No browser is downloaded: the tests use ``/usr/bin/chromium`` (or the path in
``STREAMBLOCKS_CHROMIUM``) and skip, saying why, when it is not there. Screenshots are
written to ``STREAMBLOCKS_VIEW_SCREENSHOTS`` when it names a directory (``docs/images``
to refresh the documentation's), else to the test's temporary directory.
"""

from __future__ import annotations

import copy
import json
import os
import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adapters.transcripts import claude_partial_run, claude_tool_run, codex_run, jsonl

from . import fixtures

CHROMIUM = os.environ.get("STREAMBLOCKS_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for this module. Not per session: Playwright's sync API keeps an event
    loop running in the main thread while it is open, so `asyncio.run` in a later test of
    the same worker would fail."""
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"no Chromium at {CHROMIUM} (install Debian's: apt-get install chromium, "
            "or set STREAMBLOCKS_CHROMIUM)"
        )
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (it is in the dev extra)"
    )
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


class Page:
    """A page in a fresh browser context, with what it logged and the dialogs it opened."""

    def __init__(self, browser: Any, scheme: str = "light") -> None:
        self.context = browser.new_context(
            viewport={"width": 1000, "height": 900}, color_scheme=scheme
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on(
            "console",
            lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None,
        )
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def open(self, url: str) -> Any:
        self.page.goto(url)
        self.page.wait_for_selector("body[data-rendered=true]", timeout=20000)
        return self.page


@pytest.fixture
def pages(browser: Any) -> Iterator[Any]:
    opened: list[Page] = []

    def new(scheme: str = "light") -> Page:
        page = Page(browser, scheme)
        opened.append(page)
        return page

    yield new
    for page in opened:
        assert page.errors == [], "the page logged errors"
        assert page.dialogs == []
        page.context.close()


def shot(page: Any, name: str, tmp_path: Path, window: tuple[int, int] | None = None) -> None:
    """A screenshot of the whole page (at most 2,400 pixels), or of a ``window``."""
    folder = Path(os.environ.get("STREAMBLOCKS_VIEW_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    if window is None:
        height = page.evaluate("document.documentElement.scrollHeight")
        window = (1000, max(600, min(height, 2400)))
    page.set_viewport_size({"width": window[0], "height": window[1]})
    page.wait_for_timeout(100)  # code that came into view is highlighted
    page.screenshot(path=str(folder / name))


def texts(page: Any, selector: str) -> list[str]:
    return [text.strip() for text in page.locator(selector).all_inner_texts()]


def test_a_claude_run(browser: Any, pages: Any, serve: Any, tmp_path: Path) -> None:
    viewer = pages()
    viewer.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = viewer.open(serve(fixtures.claude_file(tmp_path)).url)

    assert page.get_by_text("Let me look at the code.").is_visible()
    thinking = page.locator("sb-thinking details")
    assert thinking.evaluate("d => d.open") is False  # collapsed
    assert thinking.locator("summary").inner_text().startswith("✻\nThought")
    assert texts(page, "sb-tool-call .sb-tool-name") == [
        "Read", "Bash", "Edit", "Write", "TodoWrite",
    ]  # fmt: skip
    assert (
        page.locator("sb-tool-call details").evaluate_all("ds => ds.map(d => d.open)")
        == [False] * 5
    )
    page.locator("sb-tool-call summary").first.click()
    page.locator("sb-tool-call .sb-tool-body .hljs-attr").first.wait_for()  # JSON, highlighted
    assert '"file_path": "/repo/calc.py"' in page.locator("sb-tool-call").first.inner_text()
    # Each tool's output is drawn once: as the row its result stands for (the terminal,
    # the code panel, the diff, the plan), never also as a "Bash error" / "Read result".
    assert page.locator("sb-tool-result").count() == 0
    assert page.locator("sb-command").count() == 1
    assert page.locator("sb-code-block").count() == 1
    assert page.locator("sb-command .sb-exit").inner_text() == "failed"
    assert page.get_by_text("Bash error").count() == 0
    assert page.locator("sb-file-change").evaluate_all(
        "rows => rows.map(r => [r.dataset.change, r.querySelector('.sb-path').textContent])"
    ) == [["modified", "/repo/calc.py"], ["added", "/repo/NOTES.md"]]
    assert texts(page, ".sb-todo-text") == ["Read calc.py", "Fix add()"]
    footer = page.locator("sb-footer").inner_text()
    assert "end_turn" in footer and "$0.0421" in footer and "12.0 s" in footer

    code = page.locator("sb-code-block .sb-code")
    assert code.locator(".sb-code-lang").inner_text().startswith("/repo/calc.py")
    code.locator("span.hljs-keyword").first.wait_for()  # highlighted once in view
    shot(page, "viewer-claude.png", tmp_path)
    code.locator("button.sb-copy").click()
    assert page.evaluate("navigator.clipboard.readText()") == (
        "def add(a, b):\n    return a - b\n\n\nprint(add(1, 2))\n"
    )


def test_results_longer_than_ten_lines_are_collapsed(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    lines = fixtures.untyped_results(copy.deepcopy(claude_tool_run()))
    result = lines[4]["message"]["content"][0]
    assert result["tool_use_id"] == "toolu_read"
    result["content"] = "".join(f"{n:6}\tline {n}\n" for n in range(1, 31))
    page = pages().open(serve(fixtures.write(tmp_path, "long.jsonl", jsonl(lines))).url)
    opened = page.locator("sb-tool-result details").evaluate_all("ds => ds.map(d => d.open)")
    assert opened == [False, True, True, True, True]
    assert "30 lines" in page.locator("sb-tool-result").first.inner_text()


def test_toggles_hide_and_show_and_are_remembered(pages: Any, serve: Any, tmp_path: Path) -> None:
    lines = fixtures.untyped_results(claude_tool_run())
    served = serve(fixtures.write(tmp_path, "plain.jsonl", jsonl(lines)))
    page = pages().open(served.url)
    thinking, results = page.locator("sb-thinking"), page.locator("sb-tool-result")
    assert thinking.is_visible() and results.first.is_visible()
    assert not page.locator("sb-notice[data-kind=raw]").first.is_visible()  # off by default

    page.locator("sb-toolbar button[data-kind=thinking]").click()
    page.locator("sb-toolbar button[data-kind=result]").click()
    thinking.wait_for(state="detached")  # not hidden: not drawn at all
    results.first.wait_for(state="detached")
    assert page.get_by_text("Let me look at the code.").is_visible()

    page.reload()
    page.wait_for_selector("body[data-rendered=true]")
    assert page.locator("sb-thinking").count() == 0
    button = page.locator("sb-toolbar button[data-kind=thinking]")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    page.locator("sb-thinking").wait_for()
    assert page.locator("sb-thinking").is_visible()


def test_a_codex_run(pages: Any, serve: Any, tmp_path: Path) -> None:
    page = pages("dark").open(serve(fixtures.codex_file(tmp_path)).url)
    exit_badge = page.locator("sb-command .sb-exit")
    assert exit_badge.inner_text() == "exit 1"
    assert exit_badge.get_attribute("data-ok") == "false"
    assert page.locator("sb-command .sb-terminal-out").inner_text() == "..F\n1 failed"
    assert page.locator("sb-file-change").evaluate_all(
        "rows => rows.map(r => r.dataset.change)"
    ) == ["modified", "added", "deleted"]
    assert texts(page, "sb-tool-call .sb-tool-name") == ["search_issues", "web_search"]
    assert page.locator("sb-block .sb-type").inner_text() == "note"
    assert page.locator("sb-text code").first.inner_text() == "add()"  # markdown
    shot(page, "viewer-codex-dark.png", tmp_path)


def test_a_codex_session_file(pages: Any, serve: Any) -> None:
    # The sample rollout: its first command was interrupted (no exit code), a status
    # drawn as a failure, not in the green of a command that completed.
    sample = Path(__file__).parents[2] / "examples" / "transcripts" / "codex-rollout.jsonl"
    page = pages().open(serve(sample).url)
    badges = page.locator("sb-command .sb-exit")
    badges.nth(1).wait_for()
    assert texts(page, "sb-command .sb-exit")[:2] == ["interrupted", "exit 1"]
    assert badges.evaluate_all("rows => rows.map(r => r.dataset.ok)")[:2] == ["false", "false"]


def test_text_with_custom_blocks(pages: Any, serve: Any, tmp_path: Path) -> None:
    path = fixtures.write(tmp_path, "reply.md", fixtures.CUSTOM_TEXT)
    page = pages().open(serve(path).url)
    assert page.locator("sb-text h2").first.inner_text() == "Release notes"
    assert page.locator("sb-text strong").first.inner_text() == "faster"
    docs = page.locator("sb-text a.sb-link").first
    assert docs.get_attribute("href") == "https://example.com/docs"
    assert docs.get_attribute("rel") == "noopener noreferrer"

    note = page.locator("sb-block", has=page.locator(".sb-id", has_text="#n1")).first
    assert note.locator(".sb-type").inner_text() == "note"
    assert note.locator(".sb-block-content em").inner_text() == "old"
    cite = page.locator("sb-block.sb-citation a")
    assert cite.get_attribute("href") == "https://example.com/paper"
    assert cite.inner_text() == "The streaming paper"
    todo = page.locator("sb-block", has=page.locator(".sb-id", has_text="#t1"))
    assert "owner" in todo.locator(".sb-meta").inner_text()
    assert "ana" in todo.locator(".sb-meta").inner_text()

    fence = page.locator("sb-text .sb-code")
    assert fence.get_attribute("data-language") == "python"
    assert fence.locator("button.sb-copy").count() == 1
    keyword = fence.locator("span.hljs-keyword").first
    keyword.wait_for()
    assert keyword.inner_text() == "def"

    invalid = page.locator("sb-block.sb-invalid")
    assert invalid.count() == 1
    assert "UNCLOSED" in invalid.inner_text()
    shot(page, "viewer-blocks.png", tmp_path)


def test_markup_in_the_stream_is_text_and_runs_nothing(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    viewer = pages()
    page = viewer.open(serve(fixtures.write(tmp_path, "hostile.md", fixtures.HOSTILE)).url)
    assert page.locator("main img, main script, main b, main svg, main [onerror]").count() == 0
    body = page.locator("main").inner_text()
    # an unquoted-attribute tag is a generic block (DESIGN.md): a card, attributes as text
    assert "onerror" in body and "alert(1)" in body
    # `extract`'s default registry shows unknown XML tags as generic blocks: a card
    # of type "script" whose content is text.
    assert "alert(2)" in body
    assert "<script>alert(5)</script>" in page.locator("sb-text .sb-code").inner_text()
    assert page.locator("main a").count() == 0  # the javascript: link stays text
    assert "[click](javascript:alert(7)" in body
    card = page.locator("sb-block", has=page.locator(".sb-id", has_text="#m1"))
    assert "<img src=x onerror=alert(9)>" in card.locator(".sb-meta").inner_text()
    assert "<svg onload=alert(10)>" in card.locator(".sb-block-content").inner_text()
    page.wait_for_timeout(200)
    assert viewer.errors == []
    assert viewer.dialogs == []
    # Trusted Types are enforced: markup cannot be assigned as a string anywhere.
    refused = page.evaluate(
        "() => { try { document.body.innerHTML = '<b>x</b>'; return false }"
        " catch (e) { return e instanceof TypeError } }"
    )
    assert refused is True
    viewer.errors.clear()  # the refused assignment above is reported on the console


def test_markup_in_tool_names_and_raw_events(pages: Any, serve: Any, tmp_path: Path) -> None:
    lines = copy.deepcopy(claude_tool_run())
    hostile = "<img src=x onerror=alert(1)>"
    lines[0]["model"] = "<script>alert(2)</script>"
    lines[3]["message"]["content"][0]["name"] = hostile
    lines[3]["message"]["content"][0]["input"] = {"file_path": "<script>alert(3)</script>"}
    page = pages().open(serve(fixtures.write(tmp_path, "tools.jsonl", jsonl(lines))).url)
    page.locator("sb-toolbar button[data-kind=raw]").click()
    page.locator("sb-tool-call summary").first.click()
    page.locator("sb-tool-call .sb-tool-body pre").first.wait_for()  # built when opened
    assert page.locator("main img, main script").count() == 0
    assert page.locator("sb-tool-call .sb-tool-name").first.inner_text() == hostile
    assert "<script>alert(3)</script>" in page.locator("sb-tool-call").first.inner_text()


def test_a_malformed_line_shows_a_warning_row(pages: Any, serve: Any, tmp_path: Path) -> None:
    lines = jsonl(codex_run()).splitlines(keepends=True)
    broken = [*lines[:3], "{not json\n", *lines[3:]]
    page = pages().open(serve(fixtures.write(tmp_path, "broken.jsonl", "".join(broken))).url)
    warning = page.locator("sb-notice[data-kind=warning]")
    assert warning.count() == 1
    assert "line 4: invalid JSON" in warning.inner_text()
    assert page.locator("sb-command").count() == 1  # what follows is shown


def test_a_live_stream_shows_thinking_while_it_streams(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    lines: queue.Queue[Any] = queue.Queue()
    run = claude_partial_run()
    for line in run[:5]:  # the system line, message start, thinking start and two deltas
        lines.put(line)
    served = serve(iter(lines.get, None))
    viewer = pages()
    page = viewer.page
    page.goto(served.url)
    thinking = page.locator("sb-thinking")
    thinking.wait_for()
    assert thinking.get_attribute("data-state") == "streaming"
    assert thinking.locator(".sb-label").inner_text() == "Thinking…"
    assert thinking.locator("details").evaluate("d => d.open") is False
    for line in run[5:]:
        lines.put(line)
    lines.put(None)
    page.wait_for_selector("body[data-rendered=true]", timeout=20000)
    assert thinking.get_attribute("data-state") == "done"
    assert thinking.locator(".sb-label").inner_text().startswith("Thought")
    assert page.locator("sb-footer .sb-status").inner_text() == "finished"


def test_export_button_saves_the_content_model(pages: Any, serve: Any, tmp_path: Path) -> None:
    page = pages().open(serve(fixtures.codex_file(tmp_path)).url)
    with page.expect_download() as download:
        page.locator("sb-toolbar a.sb-button", has_text="Export JSON").click()
    saved = Path(download.value.path()).read_text("utf-8")
    assert [block["type"] for block in json.loads(saved)["content"]][:2] == [
        "thinking",
        "command",
    ]


def _large(tmp_path: Path, copies: int = 100) -> Path:
    run = claude_tool_run()
    body = run[1:-1] * copies  # ~0.6 MB at 100: 500 tool calls with their results
    return fixtures.write(tmp_path, "large.jsonl", jsonl([run[0], *body, run[-1]]))


def _model(page: Any, expression: str) -> Any:
    return page.evaluate(
        f"(() => {{ const run = document.querySelector('sb-run'); return {expression}; }})()"
    )


def _until(page: Any, expression: str, timeout: float = 20.0) -> None:
    """Wait until ``expression`` is true in the page (``wait_for_function`` would need
    ``eval``, which the page's CSP refuses)."""
    import time

    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => Boolean({expression})"):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(50)


def _in_window(page: Any, selector: str) -> bool:
    return bool(page.evaluate(
        "s => { const r = document.querySelector(s)?.getBoundingClientRect();"
        " return !!r && r.top >= 0 && r.top < innerHeight; }", selector))  # fmt: skip


def test_a_large_transcript_keeps_only_the_rows_in_view_in_the_page(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    path = _large(tmp_path)
    assert path.stat().st_size > 500_000
    page = pages().open(serve(path).url)
    assert _model(page, "run.list.items.filter(i => i.kind === 'tool').length") == 500
    drawn = page.locator(".sb-row").count()
    assert 0 < drawn < 120  # the rows near the window, not the 3,000 of the run
    assert page.locator("sb-footer .sb-status").inner_text() == "finished"

    page.keyboard.press("End")  # the whole run is scrollable to its end
    _until(
        page,
        "document.querySelector('sb-run').list.drawn.at(-1)"
        " === document.querySelector('sb-run').list.shown.at(-1)",
    )
    assert page.locator("sb-tool-call .sb-tool-name").last.inner_text() == "TodoWrite"
    assert page.get_by_text("Done: the bug is fixed").last.is_visible()

    # a toggle lists the rows again from their models; the page stays small
    page.locator("sb-toolbar button[data-kind=tool]").click()
    page.locator("sb-tool-call").first.wait_for(state="detached")
    assert page.locator(".sb-row").count() < 120
    page.locator("sb-toolbar button[data-kind=tool]").click()
    page.locator("sb-tool-call").first.wait_for()


def test_a_run_taller_than_a_page_can_be_is_scrolled_through_to_its_end(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    # A browser lays out no element taller than ~33.5 million px (a 50 MB run of short
    # rows is taller): the list is capped and scrolling is mapped onto the run. The cap
    # is lowered here so that a small run passes it.
    lines = [copy.deepcopy(line) for line in claude_tool_run()[1:-1] * 48]
    lines[13 * 20 + 2]["message"]["content"][0]["name"] = "MiddleTool"  # a Read call
    page = pages().open(serve(fixtures.write(tmp_path, "tall.jsonl", jsonl(lines))).url)
    page.evaluate("document.querySelector('sb-run').list.tallest = 20000; scrollBy(0, 1)")
    _until(page, "document.querySelector('sb-run').list.stretch > 1.5")
    run_px = _model(page, "run.list.offsets[run.list.shown.length]")
    assert run_px > 40_000
    assert page.evaluate("document.querySelector('.sb-list').offsetHeight") == 20_000

    page.keyboard.press("End")  # the end of the run, not of the capped list
    _until(
        page,
        "document.querySelector('sb-run').list.drawn.at(-1)"
        " === document.querySelector('sb-run').list.shown.at(-1)",
    )
    page.wait_for_timeout(200)
    assert page.get_by_text("Done: the bug is fixed").last.is_visible()

    search = page.locator("sb-search input")  # a jump lands on its row
    search.fill("middletool")
    search.press("Enter")
    page.locator("sb-tool-call.sb-target").wait_for()
    page.wait_for_timeout(200)
    assert _in_window(page, "sb-tool-call.sb-target")

    page.evaluate("scrollTo(0, 0)")  # and the start is the start
    _until(page, "scrollY === 0")
    page.wait_for_timeout(200)
    assert _model(page, "run.list.drawn[0] === run.list.shown[0]")
    assert _in_window(page, ".sb-row")


def test_search_finds_rows_that_are_not_drawn_and_jumps_to_them(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    lines = [copy.deepcopy(line) for line in claude_tool_run()[1:-1] * 60]
    lines[-5]["message"]["content"][0]["name"] = "NeedleTool"  # a tool call near the end
    page = pages().open(serve(fixtures.write(tmp_path, "s.jsonl", jsonl(lines))).url)
    assert page.locator("sb-tool-call .sb-tool-name", has_text="NeedleTool").count() == 0
    search = page.locator("sb-search input")
    page.keyboard.press("Control+f")  # the page's search box, not find-in-page
    assert page.evaluate("document.activeElement.classList.contains('sb-search-input')")
    search.fill("needletool")
    search.press("Enter")
    target = page.locator("sb-tool-call.sb-target")
    target.wait_for()
    assert target.locator(".sb-tool-name").inner_text() == "NeedleTool"
    page.wait_for_timeout(100)
    assert _in_window(page, "sb-tool-call.sb-target")
    assert page.locator("sb-search .sb-search-count").inner_text() == "1 of 2"  # and its result
    assert page.evaluate("CSS.highlights.get('sb-search').size") >= 1
    search.fill("no such text anywhere")
    search.press("Enter")
    assert page.locator("sb-search .sb-search-count").inner_text() == "no match"


def test_the_outline_counts_turns_tools_and_errors_and_jumps(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    viewer = pages()
    viewer.context.add_init_script("localStorage.clear()")
    page = viewer.open(serve(_large(tmp_path, 20)).url)
    page.locator("sb-toolbar .sb-outline-button").click()
    outline = page.locator("sb-outline")
    assert outline.is_visible()
    counts = outline.locator(".sb-section").evaluate_all(
        "ss => Object.fromEntries(ss.map(s => [s.dataset.section, +s.dataset.count]))"
    )
    # a turn starts the run and follows each tool's output (five per copy, the last one
    # the closing reply); each copy's Bash call fails once: its command (its result is
    # drawn as the command's terminal, not again as a result)
    assert counts == {"turns": 20 * 5 + 1, "tools": 100, "errors": 20, "agents": 0}
    tools = outline.locator(".sb-tool-line").evaluate_all(
        "ls => ls.map(l => [l.dataset.tool, l.querySelector('.sb-count').textContent])"
    )
    assert sorted(tools) == [
        [name, "20"] for name in sorted(["Read", "Bash", "Edit", "Write", "TodoWrite"])
    ]
    errors = outline.locator(".sb-section[data-section=errors] summary")
    errors.click()
    entries = outline.locator(".sb-section[data-section=errors] .sb-entry")
    assert entries.first.inner_text() == "command failed: pytest -q"
    entries.nth(15).click()  # far down the run
    page.locator(".sb-target").wait_for()
    page.wait_for_timeout(100)
    assert _in_window(page, ".sb-target")
    assert page.locator(".sb-target").evaluate("r => r.item.seq") == _model(
        page, "run.outline.errors[15].seq"
    )
    bash = outline.locator(".sb-tool-line[data-tool=Bash] .sb-step").last
    bash.click()
    page.wait_for_timeout(150)
    assert page.locator("sb-tool-call.sb-target .sb-tool-name").inner_text() == "Bash"
    shot(page, "viewer-outline.png", tmp_path, window=(1400, 900))
    # between the header and the footer, and aligned with the column, at any width
    edges = """() => {
        const box = (s) => document.querySelector(s).getBoundingClientRect();
        const [panel, header, footer] = [box("sb-outline"), box(".sb-header"), box("sb-footer")];
        return [panel.top - header.bottom, footer.top - panel.bottom,
                box(".sb-header-inner").left - box("main").left, header.height,
                box("main").width];
    }"""
    heights = set()
    for width in (1400, 900, 700):
        page.set_viewport_size({"width": width, "height": 700})
        page.wait_for_timeout(100)
        top, bottom, column, height, main = page.evaluate(edges)
        assert (round(top), round(bottom), round(column)) == (0, 0, 0), width
        heights.add(round(height))
        # beside the column where there is room; over it (the column whole) where not
        assert main == (min(920, width - 272) if width >= 900 else width), width
    assert len(heights) > 1  # the header did wrap: the panel followed it


def test_a_live_run_waits_streams_and_finishes_with_its_badge(pages: Any, serve: Any) -> None:
    lines: queue.Queue[Any] = queue.Queue()
    served = serve(iter(lines.get, None))
    page = pages().page
    page.goto(served.url)
    status = page.locator("sb-footer .sb-status")
    _until(
        page, "document.querySelector('sb-footer .sb-status').textContent === 'waiting for input'"
    )
    assert page.locator("sb-run").get_attribute("data-state") == "waiting"
    run = claude_partial_run()
    for line in run[:5]:
        lines.put(line)
    page.locator("sb-thinking").wait_for()
    assert status.inner_text().startswith("streaming")
    for line in run[5:]:
        lines.put(line)
    lines.put(None)
    page.wait_for_selector("body[data-rendered=true]", timeout=20000)
    assert status.inner_text() == "finished"
    # the page's own time is not the run's: the footer shows the run's, when it has one
    assert page.locator("sb-footer .sb-fact[data-name=elapsed]").count() == 0


def test_live_badge_shows_only_while_the_input_is_open(pages: Any, browser: Any) -> None:
    from .served import Served

    lines: queue.Queue[Any] = queue.Queue()
    served = Served(iter(lines.get, None), None, live=True)
    try:
        page = pages().page
        page.goto(served.url)
        badge = page.locator("sb-title .sb-live")
        badge.wait_for()
        assert badge.is_visible()
        for line in claude_tool_run()[:3]:
            lines.put(line)
        page.get_by_text("Let me look at the code.").wait_for()
        assert badge.is_visible()
        served.run.stop()  # what Ctrl-C does
        _until(page, "document.querySelector('sb-run').dataset.state === 'stopped'")
        assert page.locator("sb-footer .sb-status").inner_text() == "stopped"
        assert "Ctrl-C" in page.locator("sb-footer").inner_text()
        assert not badge.is_visible()
    finally:
        lines.put(None)
        served.stop()


def _anthropic_open_rows(thought: bool) -> list[dict[str, Any]]:
    """A reply cut off with a thought, or a block and a tool call, open (Anthropic
    stream events)."""
    usage = {"input_tokens": 5, "output_tokens": 0}
    message = {"id": "m1", "type": "message", "role": "assistant", "model": "claude-x",
               "content": [], "stop_reason": None, "usage": usage}  # fmt: skip
    if thought:
        return [
            {"type": "message_start", "message": message},
            {"type": "content_block_start", "index": 0,
             "content_block": {"type": "thinking", "thinking": ""}},
            {"type": "content_block_delta", "index": 0,
             "delta": {"type": "thinking_delta", "thinking": "Let me weigh the"}},
        ]  # fmt: skip
    text = "Here is a note:\n!!n1:note\nremember the"
    return [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1,
         "content_block": {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {}}},
        {"type": "content_block_delta", "index": 1,
         "delta": {"type": "input_json_delta", "partial_json": '{"file_path": "/repo/ca'}},
    ]  # fmt: skip


@pytest.mark.parametrize("thought", [False, True], ids=["block and call", "thought"])
def test_rows_a_stopped_run_never_ended_say_they_are_not_finished(
    pages: Any, browser: Any, thought: bool
) -> None:
    from .served import Served

    lines: queue.Queue[Any] = queue.Queue()
    served = Served(iter(lines.get, None), None, live=True)
    rows = {"sb-thinking": "Let me weigh the"} if thought else {
        "sb-block": "remember the", "sb-tool-call": "Read"}  # fmt: skip
    try:
        page = pages().page
        page.goto(served.url)
        for event in _anthropic_open_rows(thought):
            lines.put(event)
        for row in rows:
            page.locator(row).wait_for()
        assert page.locator(".sb-cut").count() == 0  # streaming, not cut
        served.run.stop()  # what Ctrl-C does
        _until(page, "document.querySelector('sb-run').dataset.state === 'stopped'")
        assert "Ctrl-C" in page.locator("sb-footer").inner_text()  # the cause, said once
        for toggle in (None, "Thinking" if thought else "Custom blocks"):
            if toggle:  # hidden and shown again: the rows are rebuilt from their records
                button = page.get_by_role("button", name=toggle)
                button.click()
                page.locator(next(iter(rows))).wait_for(state="detached")
                button.click()
            for row, text in rows.items():
                page.locator(row).wait_for()
                assert page.locator(row).get_attribute("data-state") == "cut"
                shown = page.locator(row).text_content() or ""
                assert "Not finished when the run stopped" in shown
                assert text in shown  # nothing lost
        if thought:
            assert page.locator("sb-thinking .sb-label").inner_text() == "Thought · not finished"
    finally:
        lines.put(None)
        served.stop()


def test_an_empty_input_says_so(pages: Any, serve: Any) -> None:
    page = pages().open(serve(iter([])).url)
    _until(page, "document.querySelector('sb-run').dataset.state === 'finished'")
    notice = page.locator("sb-notice[data-kind=empty]")
    assert notice.inner_text().endswith("Nothing to show: the input held no text and no events")


def test_a_run_whose_rows_are_all_hidden_says_so(pages: Any, serve: Any) -> None:
    message = {"id": "m1", "type": "message", "role": "assistant", "model": "claude-x",
               "content": [], "stop_reason": None, "usage": {"input_tokens": 1}}  # fmt: skip
    events = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "thinking", "thinking": ""}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "thinking_delta", "thinking": "Only thinking here."}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_stop"},
    ]  # fmt: skip
    page = pages().open(serve(iter(events)).url)
    _until(page, "document.querySelector('sb-run').dataset.state === 'finished'")
    hidden = "getComputedStyle(document.querySelector('.sb-list'), '::before').content"
    assert page.evaluate(hidden) == "none"
    thinking = page.get_by_role("button", name="Thinking")
    thinking.click()
    page.locator("sb-thinking").wait_for(state="detached")
    assert "hidden by the toolbar's toggles" in page.evaluate(hidden)
    thinking.click()
    page.locator("sb-thinking").wait_for()
    assert page.evaluate(hidden) == "none"


def test_the_footer_counts_as_a_reader_writes_them(pages: Any, serve: Any) -> None:
    notes = "".join(f"!!n{n}:note\nx\n!!end\n" for n in range(1200))
    usage = {"input_tokens": 1, "output_tokens": 0}
    message = {"id": "m1", "type": "message", "role": "assistant", "model": "claude-x",
               "content": [], "stop_reason": None, "usage": usage}  # fmt: skip
    events = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": notes}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
         "usage": {"output_tokens": 12345}},
        {"type": "message_stop"},
    ]  # fmt: skip
    page = pages().open(serve(iter(events)).url)
    _until(page, "document.querySelector('sb-run').dataset.state === 'finished'")
    facts = page.locator("sb-footer .sb-fact").evaluate_all(
        "fs => Object.fromEntries(fs.map(f => [f.dataset.name, f.lastChild.textContent]))"
    )
    assert (facts["in"], facts["out"], facts["blocks"]) == ("1 token", "12,345 tokens", "1,200")


@pytest.mark.parametrize("whole", [False, True], ids=["event by event", "read whole"])
def test_a_sub_agent_is_nested_under_its_task_call(
    pages: Any, serve: Any, tmp_path: Path, whole: bool
) -> None:
    from streamblocks.runs import live as source

    events = iter(fixtures.subagent_events())
    # read whole, the sub-agent's text rows come as their block_end after their parent
    items = source.Items(events, source.Waits()) if whole else events
    viewer = pages()
    page = viewer.open(serve(items, fixtures.Replay()).url)
    main = page.locator("main")
    assert "I'll delegate the search." in main.inner_text()
    assert "Done: add() subtracts." in main.inner_text()
    assert "SUBAGENT" not in main.inner_text()  # collapsed: the run's own reply only
    task = page.locator("sb-tool-call", has=page.locator(".sb-tool-name", has_text="Task")).first
    facts = task.locator(".sb-agent-facts").inner_text()
    assert facts == "10 rows · tool calls: Read 1, Task 1, Grep 1 · 1 error"
    task.locator(".sb-agent-toggle").click()
    page.get_by_text("SUBAGENT TEXT: reading calc.py").wait_for()
    nested = page.locator(".sb-row[data-depth='1']")
    assert nested.evaluate_all("rs => rs.map(r => r.dataset.kind)") == [
        "thinking", "text", "tool", "result", "tool", "result", "text",
    ]  # fmt: skip
    assert "NESTED TEXT" not in main.inner_text()
    inner = page.locator(
        "sb-tool-call[data-depth='1']", has=page.locator(".sb-tool-name", has_text="Task")
    )
    assert inner.locator(".sb-agent-facts").inner_text() == "3 rows · tool calls: Grep 1 · 1 error"
    inner.locator(".sb-agent-toggle").click()
    page.get_by_text("NESTED TEXT: running grep").wait_for()
    deeper = page.locator(".sb-row[data-depth='2']")
    assert deeper.evaluate_all("rs => rs.map(r => r.dataset.kind)") == ["text", "tool", "result"]
    assert page.locator("sb-tool-result[data-depth='2'].sb-error").count() == 1
    # each level's rail is one straight line, whatever border a row has
    rails = page.locator(".sb-row[data-depth]").evaluate_all(
        """rs => rs.map(r => [r.dataset.depth, Math.round(r.getBoundingClientRect().left
            + parseFloat(getComputedStyle(r).borderLeftWidth)
            + parseFloat(getComputedStyle(r, '::before').left))])"""
    )
    assert len({x for depth, x in rails if depth == "1"}) == 1, rails
    assert len({x for depth, x in rails if depth == "2"}) == 1, rails
    outline = _model(page, "run.outline.agents.map(a => a.args[1])")
    assert outline == ["task1", "task2"]
    shot(page, "viewer-subagents.png", tmp_path)
    # collapsing the outer one hides both levels
    task.locator(".sb-agent-toggle").click()
    page.locator(".sb-row[data-depth]").first.wait_for(state="detached")


@pytest.mark.parametrize("form", ["events", "text", "claude", "codex", "partial"])
def test_a_card_read_whole_is_drawn_as_one_that_streamed(
    pages: Any, serve: Any, tmp_path: Path, form: str
) -> None:
    # Read at once, a card is sent as its end alone and a whole message (text, thinking,
    # a tool call) as one chunk; published event by event or line by line, each as its
    # events: the page draws the same rows from both.
    from streamblocks.runs import live as source

    if form == "events":  # every kind of card; read at once, or published event by event
        events = fixtures.card_events()
        whole = serve(source.Items(iter(events), source.Waits()), fixtures.Replay())
        split = serve(iter(events), fixtures.Replay())
    elif form == "text":  # a reply with blocks: a file, or published line by line
        whole = serve(fixtures.write(tmp_path, "reply.md", fixtures.CUSTOM_TEXT))
        split = serve(iter(fixtures.CUSTOM_TEXT.splitlines(keepends=True)))
    else:  # a transcript: a file, or published line by line
        lines = {"claude": claude_tool_run, "codex": codex_run, "partial": claude_partial_run}
        run = lines[form]()
        whole = serve(fixtures.write(tmp_path, f"{form}.jsonl", jsonl(run)))
        split = serve(iter(run))
    rows = (
        "run.list.items.map(i => [i.tag, i.depth, i.parent?.args[1] ?? null, i.build().outerHTML])"
    )
    drawn, counts = [], []
    for served in (whole, split):
        page = pages().open(served.url)
        drawn.append(_model(page, rows))
        counts.append(_model(page, "run.count"))
    assert drawn[0] == drawn[1]
    assert len(drawn[0]) == {"events": 12, "text": 8, "claude": 16, "codex": 14, "partial": 8}[form]
    assert counts[0] < counts[1]  # the same rows from fewer events


def test_light_and_dark_screenshots_of_search(pages: Any, serve: Any, tmp_path: Path) -> None:
    for scheme in ("light", "dark"):
        page = pages(scheme).open(serve(fixtures.claude_file(tmp_path)).url)
        search = page.locator("sb-search input")
        search.fill("calc.py")
        search.press("Enter")
        page.locator(".sb-target").wait_for()
        assert page.locator("sb-search .sb-search-count").inner_text().startswith("1 of ")
        shot(page, f"viewer-search-{scheme}.png", tmp_path)


def test_a_tool_call_fills_its_arguments_while_they_stream(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    lines: queue.Queue[Any] = queue.Queue()
    run = claude_partial_run()
    pieces = [line.get("event", {}).get("delta", {}).get("partial_json") for line in run]
    cut = pieces.index("test ") + 1  # '{"command": "pytest ' written, the rest not yet
    for line in run[:cut]:
        lines.put(line)
    served = serve(iter(lines.get, None))
    page = pages().page
    page.goto(served.url)
    card = page.locator("sb-tool-call")
    card.wait_for()
    _until(page, "document.querySelector('sb-tool-call .sb-hint')?.textContent.includes('pytest')")
    assert card.get_attribute("data-state") == "streaming"
    card.locator("summary").click()
    assert json.loads(card.locator(".sb-tool-body pre").inner_text()) == {"command": "pytest "}
    shot(page, "view-tool-call-streaming.png", tmp_path)
    for line in run[cut:]:
        lines.put(line)
    lines.put(None)
    page.wait_for_selector("body[data-rendered=true]", timeout=20000)
    assert card.get_attribute("data-state") == "done"
    assert "pytest -q" in card.locator(".sb-tool-body").inner_text()


def test_rows_drawn_again_show_what_they_showed_and_stay_searchable(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    # A row's model keeps what its end shows, not every record that came before it (the
    # streamed content and metadata of a block are replaced by its end): a row that
    # scrolls out and back in must look the same, and search still finds its text.
    head, tail = fixtures.CUSTOM_TEXT.split("Unclosed at the end:")
    filler = "".join(
        f"## Filler {n}\n\nA paragraph of filler text, number {n}.\n\n" for n in range(400)
    )
    path = fixtures.write(tmp_path, "long-reply.md", f"{head}{filler}Unclosed at the end:{tail}")
    page = pages().open(serve(path).url)
    rows = "sb-text, sb-block"
    first = page.locator(rows).evaluate_all("rs => rs.slice(0, 6).map(r => r.innerText)")
    assert any("#n1" in text and "Keep the old API" in text for text in first)
    assert any("#t1" in text and "ana" in text for text in first)
    page.keyboard.press("End")
    _until(page, "document.querySelector('sb-run').list.drawn.at(-1)"
           " === document.querySelector('sb-run').list.shown.at(-1)")  # fmt: skip
    assert page.locator("sb-block", has=page.locator(".sb-id", has_text="#n1")).count() == 0
    page.mouse.move(500, 500)
    while page.evaluate("scrollY") > 0:  # the reader scrolls back up to the top
        page.mouse.wheel(0, -20000)
        page.wait_for_timeout(100)
    page.wait_for_timeout(200)
    assert _model(page, "run.list.drawn[0] === run.list.shown[0]")
    again = page.locator(rows).evaluate_all("rs => rs.slice(0, 6).map(r => r.innerText)")
    assert again == first
    search = page.locator("sb-search input")
    for query, block_id in (("ana", "#t1"), ("for a release", "#n1")):  # metadata, content
        search.fill(query)
        search.press("Enter")
        target = "document.querySelectorAll('.sb-target')"
        _until(
            page,
            f"{target}.length === 1"
            f" && {target}[0].querySelector('.sb-id')?.textContent === '{block_id}'",
        )


def test_the_footer_counts_every_event_of_a_stream_that_pauses(pages: Any, serve: Any) -> None:
    # The count is drawn at most every quarter second while events stream: the last
    # events before a pause are counted all the same.
    lines: queue.Queue[Any] = queue.Queue()
    served = serve(iter(lines.get, None))
    page = pages().page
    page.goto(served.url)
    run = claude_partial_run()
    for line in run[:-1]:
        lines.put(line)
    page.locator("sb-thinking").wait_for()
    _until(page, "document.querySelector('sb-run').count > 0")
    shown = (
        "document.querySelector('sb-footer .sb-status').textContent"
        " === `streaming · ${document.querySelector('sb-run').count} events`"
    )
    page.wait_for_timeout(100)
    _until(page, shown, timeout=5)
    count = _model(page, "run.count")
    lines.put(run[-1])
    _until(page, f"document.querySelector('sb-run').count > {count}")
    _until(page, shown, timeout=5)
    lines.put(None)
    page.wait_for_selector("body[data-rendered=true]", timeout=20000)
    assert page.locator("sb-footer .sb-status").inner_text() == "finished"


def test_a_tool_call_streamed_in_pieces_keeps_one_record_of_its_arguments(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    # Each piece of a tool call's arguments comes with the value so far
    # (`streamblocks.view.partial`): the row's model keeps the joined text and the
    # latest value, not one of each per piece, and drops the value at the end.
    page = pages().open(serve(fixtures.claude_file(tmp_path)).url)
    found = page.evaluate(
        """async () => {
      const { Item } = await import("/static/js/list.js");
      const item = new Item("sb-tool-call", ["Bash", "c1"]);
      let text = "";
      for (const piece of ['{"command": "py', "te", "st", ' -q"}']) {
        text += piece;
        item.do("add", piece);
        item.do("partial", { command: text.slice(13).replace(/"}$/, "") });
      }
      const streaming = [...item.ops];
      item.do("end");
      const el = item.build();
      return [streaming, item.ops, el.querySelector(".sb-hint").textContent];
    }"""
    )
    assert found == [
        ["add", '{"command": "pytest -q"}', "partial", {"command": "pytest -q"}],
        ["add", '{"command": "pytest -q"}', "end", None],
        "pytest -q",
    ]


def test_a_tool_call_s_arguments_are_searched_as_written(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    # A call read whole comes as one chunk: its arguments are JSON text, with quotes and
    # line breaks escaped; search matches their strings as the model wrote them.
    page = pages().open(serve(fixtures.claude_file(tmp_path)).url)
    found = page.evaluate(
        """async () => {
      const { Item } = await import("/static/js/list.js");
      const item = new Item("sb-tool-call", ["Write", "c1"]);
      item.do("add", JSON.stringify({ content: 'say "hi"\\ncafé' }));
      item.do("end");
      return item.text();
    }"""
    )
    assert 'say "hi"\ncafé' in found


def test_a_command_whose_output_was_dropped_never_shows_completed(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    # Over a limit the user set, a command's block is rejected: its terminal says the
    # output was dropped and why, in place of a separate card beside a "completed" row.
    from streamblocks import BlockRegistry, Limits, StreamBlockProcessor

    item = {"id": "item_1", "type": "command_execution", "command": "make"}
    lines = [
        {"type": "thread.started", "thread_id": "t1"},
        {"type": "turn.started"},
        {"type": "item.started", "item": {**item, "aggregated_output": "", "status": "completed"}},
        {"type": "item.updated", "item": {**item, "aggregated_output": "log\n" * 600}},
        {"type": "item.completed", "item": {**item, "aggregated_output": "log\n" * 900,
                                            "exit_code": 0, "status": "completed"}},
        {"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}},
    ]  # fmt: skip
    processor = StreamBlockProcessor(BlockRegistry(), limits=Limits(max_block_chars=1000))
    page = pages().open(serve(fixtures.write(tmp_path, "cut.jsonl", jsonl(lines)), processor).url)
    assert page.locator("sb-command").count() == 1
    assert page.locator("sb-block").count() == 0  # no second card
    status = page.locator("sb-command .sb-exit")
    assert (status.inner_text(), status.get_attribute("data-ok")) == ("output dropped", "false")
    assert "TOO_LARGE" in page.locator("sb-command .sb-block-error").inner_text()
    assert page.get_by_text("completed").count() == 0
    shot(page, "viewer-dropped.png", tmp_path, window=(1000, 400))


def test_a_claude_tool_s_output_is_drawn_once(pages: Any, serve: Any, tmp_path: Path) -> None:
    # The result of a Bash or Read call is drawn as its terminal or code panel only; a
    # result with no typed row (an unknown tool) stays a result row, failed when it failed.
    lines = copy.deepcopy(claude_tool_run())
    lines[6].pop("tool_use_result")  # the Bash result: a plain, failed result
    page = pages().open(serve(fixtures.write(tmp_path, "once.jsonl", jsonl(lines))).url)
    kinds = _model(page, "run.list.items.map(i => i.kind)")
    assert kinds.count("result") == 1 and kinds.count("code") == 1
    assert "command" not in kinds
    failed = page.locator("sb-tool-result.sb-error")
    assert "Bash error" in failed.inner_text()
    assert page.get_by_text("Read result").count() == 0
    shot(page, "viewer-once.png", tmp_path)
