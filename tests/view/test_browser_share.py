"""The saved page (``--html``, *Save as HTML*) and ``--redact`` in a real Chromium.

The saved file is opened from ``file://`` in a context that is offline and whose every
request but the file itself is aborted and recorded: the test asserts that none was
made. Set-up (Chromium, Playwright, screenshots) as in ``test_browser``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from streamblocks.cli import main

from . import fixtures
from .served import get
from .test_browser import ARGS, CHROMIUM, _until, browser, pages, shot, texts

__all__ = ["ARGS", "CHROMIUM", "browser", "pages"]  # the fixtures, used by name


def _open_offline(pages: Any, path: Path, scheme: str = "light") -> tuple[Any, list[str]]:
    """``path`` opened from disk with the network off; the requests other than the
    file itself, which were all refused."""
    viewer = pages(scheme)
    viewer.context.set_offline(True)
    others: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if url == path.as_uri():
            request_route.continue_()
        else:
            others.append(url)
            request_route.abort()

    viewer.context.route("**/*", route)
    return viewer.open(path.as_uri()), others


def test_a_saved_claude_run_opens_from_disk_without_the_network(pages: Any, tmp_path: Path) -> None:
    out = tmp_path / "claude.html"
    assert main(["view", str(fixtures.claude_file(tmp_path)), "--html", str(out)]) == 0
    page, others = _open_offline(pages, out)
    assert page.get_by_text("Let me look at the code.").is_visible()
    assert texts(page, "sb-tool-call .sb-tool-name")[:3] == ["Read", "Bash", "Edit"]
    assert page.locator("sb-code-block .hljs-keyword").count() > 0  # highlight.js ran
    assert page.locator("sb-footer .sb-status").inner_text() == "finished"
    assert page.locator("sb-footer .sb-fact[data-name=elapsed]").count() == 0
    assert page.locator("sb-footer .sb-fact[data-name='run took']").inner_text().endswith("s")
    assert page.locator("sb-toolbar a").count() == 0  # nothing to ask a server for
    assert page.title() == "claude.jsonl · streamblocks view"
    # search, a toggle and the outline work as on the served page
    search = page.locator("sb-search input")
    search.fill("calc.py")
    search.press("Enter")
    _until(page, "document.querySelectorAll('.sb-target').length === 1")
    page.locator("sb-toolbar button[data-kind=tool]").click()
    _until(page, "document.querySelectorAll('sb-tool-call').length === 0")  # (drawn next frame)
    page.locator("sb-toolbar button[data-kind=tool]").click()
    page.locator(".sb-outline-button").click()
    assert "Read" in page.locator("sb-outline").inner_text()
    shot(page, "viewer-saved-file.png", tmp_path)
    assert others == []


def test_a_saved_sub_agent_run_in_the_dark_theme(pages: Any, serve: Any, tmp_path: Path) -> None:
    served = serve(iter(fixtures.subagent_events()), fixtures.Replay())
    get(served.url + "info.json")  # (the server is up: its reader started)
    deadline = time.monotonic() + 20
    while not served.run.done:  # the whole run read (the server saves what it has)
        assert time.monotonic() < deadline
        time.sleep(0.02)
    status, _, body = get(served.url + "export.html")
    assert status == 200 and "RUN_FINISHED" in body
    out = tmp_path / "agents.html"
    out.write_text(body, encoding="utf-8")
    page, others = _open_offline(pages, out, "dark")
    task = page.locator("sb-tool-call", has=page.locator(".sb-tool-name", has_text="Task")).first
    task.locator(".sb-agent-toggle").click()
    page.get_by_text("SUBAGENT TEXT: reading calc.py").wait_for()
    assert page.evaluate("getComputedStyle(document.body).colorScheme") in ("dark", "light dark")
    shot(page, "viewer-saved-dark.png", tmp_path, (1000, 700))
    assert others == []


def test_the_served_page_offers_save_as_html(pages: Any, serve: Any, tmp_path: Path) -> None:
    served = serve(fixtures.claude_file(tmp_path))
    page = pages().open(served.url)
    links = page.locator("sb-toolbar a.sb-button")
    _until(page, "document.querySelectorAll('sb-toolbar a.sb-button').length === 2")
    assert links.all_inner_texts() == ["Export JSON", "Save as HTML"]
    assert links.nth(1).get_attribute("href") == "/export.html"
    with page.expect_download() as download:
        links.nth(1).click()
    saved = tmp_path / "saved.html"
    download.value.save_as(saved)
    opened, others = _open_offline(pages, saved)
    assert texts(opened, "sb-tool-call .sb-tool-name") == texts(page, "sb-tool-call .sb-tool-name")
    assert others == []


SECRETS = (
    "Deploying with OPENAI_API_KEY=sk-proj-4f9Qx2LmN8vR1tZ6wY3bC7dE0hJ5kP9sA2uF from\n"
    "/home/ana/src/app; ask ana.lopez@example.com.\n\n"
    "!!n1:note\n"
    "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abcDEF'\n"
    "!!end\n"
)


def _no_secret(text: str) -> None:
    for secret in ("sk-proj-4f9Q", "/home/ana", "ana.lopez@", "eyJhbGci"):
        assert secret not in text


def test_a_redacted_file_masks_every_secret_and_counts_them(pages: Any, tmp_path: Path) -> None:
    path = fixtures.write(tmp_path, "secrets.md", SECRETS)
    out = tmp_path / "redacted.html"
    assert main(["view", str(path), "--html", str(out), "--redact"]) == 0
    _no_secret(out.read_text(encoding="utf-8"))
    page, others = _open_offline(pages, out)
    shown = page.locator("main").inner_text()
    _no_secret(shown)
    assert "OPENAI_API_KEY=[REDACTED secret]" in shown and "~/src/app" in shown
    assert "Bearer [REDACTED token]" in shown
    fact = page.locator("sb-footer .sb-fact[data-name=redacted]").inner_text()
    assert fact.endswith("1 token · 1 secret · 1 e-mail · 1 home directory")
    shot(page, "viewer-redacted.png", tmp_path, (1000, 420))
    assert others == []


def test_a_served_file_saves_a_redacted_copy(pages: Any, tmp_path: Path) -> None:
    import re
    import subprocess
    import sys

    path = fixtures.write(tmp_path, "secrets.md", SECRETS)
    process = subprocess.Popen(
        [sys.executable, "-m", "streamblocks", "view", "--no-open", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        found = re.search(r"http://127\.0\.0\.1:\d+/", process.stdout.readline())
        assert found
        page = pages().open(found.group(0))
        assert "ana.lopez@example.com" in page.locator("main").inner_text()  # not redacted
        save = page.locator("sb-toolbar a.sb-button", has_text="Save redacted")
        save.wait_for()
        with page.expect_download() as download:
            save.click()
        saved = Path(download.value.path()).read_text("utf-8")
        _no_secret(saved)
        assert "[REDACTED e-mail]" in saved
    finally:
        process.terminate()
        process.wait(10)


def _long_reply(sections: int) -> str:
    fence_with_blank_lines = "```python\n" + "x = 1\n\n" * 800 + "```\n\n"  # 5.6 KB, one fence
    parts = [
        f"## Section {n}\n\nA paragraph about **step {n}**.\n\n- one\n- two\n\n"
        f"```python\ndef step(x):\n    return x + {n}\n```\n\n| a | b |\n|---|---|\n| {n} | 2 |\n\n"
        for n in range(sections)
    ]
    parts.insert(sections // 2, fence_with_blank_lines)
    return "".join(parts) + "The very end of the reply.\n"


def test_a_long_reply_is_drawn_in_pieces_of_whole_markdown(
    pages: Any, serve: Any, tmp_path: Path
) -> None:
    text = _long_reply(1500)  # about 190 KB: one text message
    page = pages().open(serve(fixtures.write(tmp_path, "long.md", text)).url)
    run = "document.querySelector('sb-run')"
    pieces = page.evaluate(f"{run}.list.items.length")
    assert pieces > 20  # about 4 KB each
    # nothing lost or doubled: the pieces' texts, joined, are the reply
    joined = page.evaluate(f"{run}.list.items.map(item => item.ops[1]).join('')")
    assert joined == text
    assert page.evaluate(f"{run}.list.items.every(item => item.ended())")
    # each piece is whole markdown: no fence is cut (the one with blank lines inside
    # included), no piece starts inside a list or a table
    texts_of = page.evaluate(f"{run}.list.items.map(item => item.ops[1])")
    assert all(piece.count("```") % 2 == 0 for piece in texts_of)
    assert not [piece for piece in texts_of[1:] if piece.startswith(("- ", "|", " "))]
    assert page.evaluate(f"{run}.list.drawn.length") < 10  # only the pieces near the window
    page.keyboard.press("End")
    page.get_by_text("The very end of the reply.").wait_for()
    search = page.locator("sb-search input")
    search.fill("step 777")
    search.press("Enter")
    _until(page, "document.querySelectorAll('.sb-target').length === 1")
    shot(page, "viewer-long-reply.png", tmp_path, (1000, 700))
