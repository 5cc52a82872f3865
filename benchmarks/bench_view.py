"""``streamblocks view`` on a 10 MB transcript: time to first row and to fully rendered.

    python benchmarks/bench_view.py [--mb 10] [--rounds 3] [--chromium /usr/bin/chromium]

Builds a Claude Code transcript (``stream-json`` lines: thinking, text with a note block,
Read and Bash tool calls with their results, typed code and command blocks) and a
markdown reply with blocks and code fences, each about ``--mb`` megabytes; serves each
with ``streamblocks view FILE --no-open`` and opens it in headless Chromium (Playwright,
the system's Chromium). Per round, from navigation start: the first SSE event
(``sb-first-event``), the first row in the page (``sb-first-row``), everything rendered
(``sb-rendered``), and the renderer's main-thread busy time until then (Chrome's
``TaskDuration``, of it ``ScriptDuration``: less sensitive to a busy machine than wall
time). Then the time a toolbar toggle takes to hide a kind of row, and a scroll of
20,000 pixels takes to paint (click or wheel to two animation frames later); and the
server's own time to send the whole run (reading ``/events`` without a browser). Prints
the median of the rounds.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SNIPPET = "def step(x):\n    return x + 1\n"
CODE = "".join(f"def step_{n}(x):\n    return x + {n}\n\n" for n in range(20))


def _assistant(msg_id: str, content: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "assistant", "message": {"id": msg_id, "role": "assistant", "content": content}}


def _result(call_id: str, text: str, extra: dict[str, Any], error: bool = False) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": error}
    return {
        "type": "user",
        "message": {"role": "user", "content": [block]},
        "tool_use_result": extra,
    }


def claude_transcript(size: int) -> str:
    lines = [{"type": "system", "subtype": "init", "session_id": "s", "model": "m", "tools": []}]
    out: list[str] = [json.dumps(lines[0])]
    total, turn = 0, 0
    while total < size:
        turn += 1
        path = f"/repo/module_{turn}.py"
        listing = "".join(f"{n:6}\t{line}\n" for n, line in enumerate(CODE.splitlines(), 1))
        step = [
            _assistant(f"m{turn}", [{"type": "thinking", "thinking": "Check the module. " * 8}]),
            _assistant(
                f"m{turn}",
                [
                    {
                        "type": "text",
                        "text": f"Step {turn}: **reading** `{path}`.\n!!n{turn}:note\n"
                        "keep the tests green\n!!end\n",
                    }
                ],
            ),
            _assistant(
                f"m{turn}",
                [
                    {
                        "type": "tool_use",
                        "id": f"r{turn}",
                        "name": "Read",
                        "input": {"file_path": path},
                    }
                ],
            ),
            _result(
                f"r{turn}",
                listing,
                {
                    "type": "text",
                    "file": {
                        "filePath": path,
                        "content": CODE,
                        "numLines": 60,
                        "startLine": 1,
                        "totalLines": 60,
                    },
                },
            ),
            _assistant(
                f"m{turn}",
                [
                    {
                        "type": "tool_use",
                        "id": f"b{turn}",
                        "name": "Bash",
                        "input": {"command": "pytest -q"},
                    }
                ],
            ),
            _result(
                f"b{turn}",
                "3 passed",
                {"stdout": "...\n3 passed\n", "stderr": "", "interrupted": False},
            ),
        ]
        for line in step:
            text = json.dumps(line)
            total += len(text) + 1
            out.append(text)
    out.append(json.dumps({"type": "result", "subtype": "success", "is_error": False,
                           "duration_ms": 1000, "usage": {"input_tokens": 1,
                                                          "output_tokens": 1}}))  # fmt: skip
    return "\n".join(out) + "\n"


def markdown_reply(size: int) -> str:
    parts, total, n = [], 0, 0
    while total < size:
        n += 1
        part = (
            f"## Section {n}\n\nThe parser is **fast** and `feed()` is linear; see "
            f"[the docs](https://example.com/{n}).\n\n- one\n- two\n\n"
            f"!!n{n}:note\nremember item {n}\n!!end\n\n```python\n{SNIPPET}```\n\n"
        )
        parts.append(part)
        total += len(part)
    return "".join(parts)


def _serve(path: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "streamblocks", "view", str(path), "--no-open"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    found = re.search(r"http://\S+", process.stdout.readline())
    assert found
    return process, found.group(0)


def _two_frames(page: Any) -> None:
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def one_round(browser: Any, path: Path) -> dict[str, float]:
    process, url = _serve(path)
    try:
        started = time.perf_counter()
        urllib.request.urlopen(url + "events").read()
        server = (time.perf_counter() - started) * 1000
    finally:
        process.terminate()
        process.wait()
    process, url = _serve(path)
    try:
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(url)
        page.evaluate(
            "new Promise(r => document.body.dataset.rendered ? r()"
            " : document.addEventListener('sb-rendered', r))"
        )
        marks = page.evaluate(
            "Object.fromEntries(performance.getEntriesByType('mark')"
            ".map(m => [m.name, m.startTime]))"
        )
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        started = time.perf_counter()
        page.locator("sb-toolbar button[data-kind=thinking]").click()
        _two_frames(page)
        toggle = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        page.mouse.wheel(0, 20000)
        _two_frames(page)
        scroll = (time.perf_counter() - started) * 1000
        rows = page.locator(".sb-row").count()
        page.close()
    finally:
        process.terminate()
        process.wait()
    return {
        "server sends all (ms)": server,
        "first event (ms)": marks["sb-first-event"],
        "first row (ms)": marks["sb-first-row"],
        "fully rendered (ms)": marks["sb-rendered"],
        "main thread busy (ms)": metrics["TaskDuration"] * 1000,
        "of it in script (ms)": metrics["ScriptDuration"] * 1000,
        "toggle (ms)": toggle,
        "scroll (ms)": scroll,
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    size = int(args.mb * 1_000_000)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        inputs = {
            "Claude transcript": Path(folder, "claude.jsonl"),
            "markdown reply": Path(folder, "reply.md"),
        }
        inputs["Claude transcript"].write_text(claude_transcript(size))
        inputs["markdown reply"].write_text(markdown_reply(size))
        browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
        for name, path in inputs.items():
            rounds = [one_round(browser, path) for _ in range(args.rounds)]
            print(f"{name}: {path.stat().st_size / 1e6:.1f} MB, median of {args.rounds}")
            for key in rounds[0]:
                print(f"  {key:24} {statistics.median(r[key] for r in rounds):10.0f}")
        browser.close()


if __name__ == "__main__":
    main()
