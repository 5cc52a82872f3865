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


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium per test session (per xdist worker)."""
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


def shot(page: Any, name: str, tmp_path: Path) -> None:
    folder = Path(os.environ.get("STREAMBLOCKS_VIEW_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    height = page.evaluate("document.documentElement.scrollHeight")
    page.set_viewport_size({"width": 1000, "height": max(600, min(height, 2400))})
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
    failed = page.locator("sb-tool-result.sb-error")
    assert failed.count() == 1
    assert "Bash error" in failed.inner_text()
    assert page.locator("sb-command .sb-exit").inner_text() == "failed"
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
    lines = copy.deepcopy(claude_tool_run())
    result = lines[4]["message"]["content"][0]
    assert result["tool_use_id"] == "toolu_read"
    result["content"] = "".join(f"{n:6}\tline {n}\n" for n in range(1, 31))
    page = pages().open(serve(fixtures.write(tmp_path, "long.jsonl", jsonl(lines))).url)
    opened = page.locator("sb-tool-result details").evaluate_all("ds => ds.map(d => d.open)")
    assert opened == [False, True, True, True, True]
    assert "30 lines" in page.locator("sb-tool-result").first.inner_text()


def test_toggles_hide_and_show_and_are_remembered(pages: Any, serve: Any, tmp_path: Path) -> None:
    served = serve(fixtures.claude_file(tmp_path))
    page = pages().open(served.url)
    thinking, results = page.locator("sb-thinking"), page.locator("sb-tool-result")
    assert thinking.is_visible() and results.first.is_visible()
    assert not page.locator("sb-notice[data-kind=raw]").first.is_visible()  # off by default

    page.locator("sb-toolbar button[data-kind=thinking]").click()
    page.locator("sb-toolbar button[data-kind=result]").click()
    assert not thinking.is_visible()
    assert results.evaluate_all("rs => rs.every(r => r.offsetParent === null)")
    assert page.get_by_text("Let me look at the code.").is_visible()

    page.reload()
    page.wait_for_selector("body[data-rendered=true]")
    assert not page.locator("sb-thinking").is_visible()
    button = page.locator("sb-toolbar button[data-kind=thinking]")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
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
        page.locator("sb-toolbar a.sb-button").click()
    saved = Path(download.value.path()).read_text("utf-8")
    assert [block["type"] for block in json.loads(saved)["content"]][:2] == [
        "thinking",
        "command",
    ]


def test_a_large_transcript_renders_completely(pages: Any, serve: Any, tmp_path: Path) -> None:
    run = claude_tool_run()
    body = run[1:-1] * 100  # ~0.6 MB: 500 tool calls with their results
    path = fixtures.write(tmp_path, "large.jsonl", jsonl([run[0], *body, run[-1]]))
    assert path.stat().st_size > 500_000
    page = pages().open(serve(path).url)
    assert page.locator("sb-tool-call").count() == 500
    assert page.locator("sb-footer .sb-status").inner_text() == "finished"


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
    page.wait_for_function(
        "() => document.querySelector('sb-tool-call .sb-hint').textContent.includes('pytest')"
    )
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
