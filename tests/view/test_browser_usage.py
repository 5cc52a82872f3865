# ruff: noqa: E501  (records as the tools write them, one a line)
"""Tokens and time per turn on the page, in a real Chromium: on each turn, in the outline,
summed in the footer; the live page and the ``--html`` file opened from disk offline.
Set-up (Chromium, Playwright, screenshots) as in ``test_browser``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adapters.subagent_transcripts import claude_subagent_run
from adapters.transcripts import codex_run, jsonl
from streamblocks.cli import main
from usage_runs import claude_session

from . import fixtures
from .test_browser import ARGS, CHROMIUM, browser, pages, shot, texts
from .test_browser_share import _open_offline

__all__ = ["ARGS", "CHROMIUM", "browser", "pages"]  # the fixtures, used by name

TURN_LINES = [
    "TURN 1\nin 3\nout 96\ncached 12K\ncache write 4.2K\ntook 2.50 s",
    "TURN 2\nin 6\nout 1.2K\ncached 16.2K\ncache write 310\ntook 4.25 s",
    "TURN 3\nin 4\nout 12\ncached 16.5K\ncache write 120\ntook 1.50 s",
]

FACTS = "[...document.querySelectorAll('sb-footer .sb-fact')].map((f) => [f.dataset.name, f.lastChild.textContent])"


def _check(page: Any) -> None:
    lines = page.locator("main .sb-usage")
    assert [" ".join(text.split()) for text in lines.all_inner_texts()] == [
        " ".join(line.split()) for line in TURN_LINES
    ]
    # each line heads its turn's first row: the thinking, then the two texts after results
    heads = page.evaluate(
        "[...document.querySelectorAll('main .sb-usage')].map((e) => e.parentElement.tagName)"
    )
    assert heads == ["SB-THINKING", "SB-TEXT", "SB-TEXT"]
    assert lines.first.get_attribute("title") == (
        "in 3 · out 96 · cached 12,000 · cache write 4,200 · took 2.50 s"
    )
    facts = dict(page.evaluate(FACTS))
    # the run states no total (a session file has no result line): the turns' sums
    assert facts["in"] == "13 tokens" and facts["out"] == "1,342 tokens"
    assert facts["cached"] == "44,710 tokens" and facts["cache write"] == "4,630 tokens"
    assert facts["turns metered"] == "3" and facts["model time"] == "8.25 s"
    page.locator(".sb-outline-button").click()
    page.locator("sb-outline details[data-section=turns] summary").click()
    page.wait_for_selector("sb-outline .sb-entry-usage")
    entries = texts(page, "sb-outline .sb-entry-usage")
    assert entries == ["96 out · 2.50 s", "1.2K out · 4.25 s", "12 out · 1.50 s"]
    title = page.locator("sb-outline .sb-entry-usage").nth(1).get_attribute("title")
    assert title == "in 6 · out 1,234 · cached 16,200 · cache write 310 · took 4.25 s"


def test_tokens_and_time_per_turn_on_the_live_page(pages: Any, serve: Any, tmp_path: Path) -> None:
    page = pages().open(
        serve(fixtures.write(tmp_path, "session.jsonl", jsonl(claude_session()))).url
    )
    _check(page)
    shot(page, "viewer-usage.png", tmp_path, (1400, 900))


def test_tokens_and_time_per_turn_in_the_saved_file(pages: Any, tmp_path: Path) -> None:
    path = fixtures.write(tmp_path, "session.jsonl", jsonl(claude_session()))
    out = tmp_path / "session.html"
    assert main(["view", str(path), "--html", str(out)]) == 0
    page, others = _open_offline(pages, out, "dark")
    _check(page)
    shot(page, "viewer-usage-saved-dark.png", tmp_path, (1400, 900))
    assert others == []


def test_a_run_that_records_no_usage_shows_none(pages: Any, serve: Any, tmp_path: Path) -> None:
    page = pages().open(serve(fixtures.write(tmp_path, "reply.md", fixtures.CUSTOM_TEXT)).url)
    assert page.locator(".sb-usage").count() == 0
    names = {name for name, _ in page.evaluate(FACTS)}
    assert names and not {"turns metered", "model time", "in", "out"} & names


def test_a_sub_agents_turns_are_summed_on_its_bar(pages: Any, serve: Any, tmp_path: Path) -> None:
    # Task 1's sub-agent makes 3 model calls and starts Task 2, whose sub-agent makes 2
    page = pages().open(
        serve(fixtures.write(tmp_path, "agents.jsonl", jsonl(claude_subagent_run()))).url
    )
    outer = page.locator("sb-tool-call", has=page.locator(".sb-tool-name", has_text="Task")).first
    assert outer.locator(".sb-agent-facts").inner_text().endswith("in 50 · out 25")
    outer.locator(".sb-agent-toggle").click()
    inner = page.locator(
        "sb-tool-call[data-depth='1']", has=page.locator(".sb-tool-name", has_text="Task")
    )
    assert inner.locator(".sb-agent-facts").inner_text().endswith("in 20 · out 10")
    # the main agent's own turns carry theirs
    assert page.locator("main sb-text > .sb-usage, main sb-thinking > .sb-usage").count() >= 1
    shot(page, "viewer-usage-agents.png", tmp_path, (1000, 800))


def test_a_codex_turns_usage_covers_its_agent_loop(pages: Any, serve: Any, tmp_path: Path) -> None:
    # one `codex exec` turn: reasoning, a command, a plan, file changes, calls, replies —
    # several turns on the page, one usage for them all, on the first
    page = pages().open(serve(fixtures.write(tmp_path, "codex.jsonl", jsonl(codex_run()))).url)
    turns = page.evaluate("document.querySelector('sb-run').outline.turns.length")
    assert turns > 1
    line = page.locator("main .sb-usage")
    assert line.count() == 1
    assert " ".join(line.inner_text().split()) == f"TURNS 1–{turns} in 1.2K out 345 cached 200"
    facts = dict(page.evaluate(FACTS))
    assert facts["in"] == "1,200 tokens" and facts["turns metered"] == "1"
    shot(page, "viewer-usage-codex.png", tmp_path, (1000, 500))
