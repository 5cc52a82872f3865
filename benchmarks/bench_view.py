"""``streamblocks view`` at the size of real runs, measured in the browser.

    python benchmarks/bench_view.py [--mb 10 50] [--kinds claude codex markdown sections]
                                    [--rounds 3] [--live-seconds 10] [--chromium PATH]

Builds inputs of about ``--mb`` megabytes of four kinds: a Claude Code transcript
(``stream-json`` lines: thinking, text with a note block, Read and Bash calls with their
results), a Codex transcript (``codex exec --json``: reasoning, commands with output,
replies in markdown, file changes with diffs), a dense markdown reply (a block and a
code fence every 250 bytes) and one long markdown reply of ordinary sections (a heading,
a paragraph, a list, a Python fence and a table, repeated; no block: one text
message). Serves each with ``streamblocks view FILE --no-open`` and
opens it in headless Chromium (Playwright, the system's Chromium). Per round, from
navigation start: the first row on screen (``sb-first-row``), every event applied
(``sb-rendered``), and *scrollable to the end*: that, plus pressing End until the run's
last row is drawn. Then a toolbar toggle (click to two animation frames later) and the
page's memory after a garbage collection (the JS heap, Chrome's ``Performance.getMetrics``,
and the whole renderer process's proportional set size from ``/proc``) with the number of
DOM nodes. The server's own time to send the whole run
(``/events?batch`` read without a browser), wall and CPU, is measured once per input:
with the page's main-thread time, it splits a round's time between server and page.
``--saved`` also saves each input as one file (``--html``) and opens it from disk, with
the same marks. ``--live-seconds`` feeds a live page
1,000 events a second through a pipe (Anthropic stream events, one text delta each) and
samples how far the drawn text is behind what was written. Prints medians of the rounds
and the load average.

``--reader`` measures the server's reader alone, in this process and without a browser
or a socket: the CPU time of the library reading each input (``library``: the input read
and processed, its events dropped) and of the whole reader (``viewer``: also turned into
the page's AG-UI messages, as the server does), interleaved, medians of ``--rounds``. The
difference is what the viewer adds to the library. ``--reader --part viewer --rounds 1``
is the form to run under cProfile or callgrind. The browser run prints the same split
for each input (besides the server's CPU time while a page reads it).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
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
    out.append(
        json.dumps(
            {
                "type": "result",
                "subtype": "success",
                "is_error": False,
                "duration_ms": 1000,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            }
        )
    )
    return "\n".join(out) + "\n"


def _codex_item(kind: str, item: dict[str, Any]) -> str:
    return json.dumps({"type": kind, "item": item})


def codex_transcript(size: int) -> str:
    out = [json.dumps({"type": "thread.started", "thread_id": "t"})]
    total, turn = 0, 0
    diff = "".join(f"-    return x + {n}\n+    return x - {n}\n" for n in range(8))
    while total < size:
        turn += 1
        path = f"src/module_{turn}.py"
        lines = [
            json.dumps({"type": "turn.started"}),
            _codex_item(
                "item.completed",
                {"id": f"r{turn}", "type": "reasoning", "text": "**Checking** the module. " * 6},
            ),
            _codex_item(
                "item.started",
                {
                    "id": f"c{turn}",
                    "type": "command_execution",
                    "command": "bash -lc 'pytest -q'",
                    "aggregated_output": "",
                    "exit_code": None,
                    "status": "in_progress",
                },
            ),
            _codex_item(
                "item.completed",
                {
                    "id": f"c{turn}",
                    "type": "command_execution",
                    "command": "bash -lc 'pytest -q'",
                    "aggregated_output": "..F\n" * 20 + "1 failed\n",
                    "exit_code": 1,
                    "status": "failed",
                },
            ),
            _codex_item(
                "item.completed",
                {
                    "id": f"f{turn}",
                    "type": "file_change",
                    "changes": [
                        {
                            "path": f"src/module_{turn}.py",
                            "kind": "update",
                            "diff": f"--- a/{path}\n+++ b/{path}\n@@ -1,8 +1,8 @@\n{diff}",
                        }
                    ],
                    "status": "completed",
                },
            ),
            _codex_item(
                "item.completed",
                {
                    "id": f"m{turn}",
                    "type": "agent_message",
                    "text": f"Step {turn}: fixed `step()` in **module_{turn}**.\n\n"
                    "- ran the tests\n- changed one line\n",
                },
            ),
            json.dumps(
                {"type": "turn.completed", "usage": {"input_tokens": 10, "output_tokens": 5}}
            ),
        ]
        for line in lines:
            total += len(line) + 1
            out.append(line)
    return "\n".join(out) + "\n"


def _sections(size: int, section: Callable[[int], str]) -> str:
    """``section(1)``, ``section(2)``… joined, until they hold ``size`` characters."""
    parts, total, n = [], 0, 0
    while total < size:
        n += 1
        parts.append(section(n))
        total += len(parts[-1])
    return "".join(parts)


def markdown_reply(size: int) -> str:
    return _sections(
        size,
        lambda n: (
            f"## Section {n}\n\nThe parser is **fast** and `feed()` is linear; see "
            f"[the docs](https://example.com/{n}).\n\n- one\n- two\n\n"
            f"!!n{n}:note\nremember item {n}\n!!end\n\n```python\n{SNIPPET}```\n\n"
        ),
    )


def sections_reply(size: int) -> str:
    """One long markdown reply of ordinary sections (a heading, a paragraph, a short
    list, a fenced Python block, a small table), no blocks: one text message."""
    return _sections(
        size,
        lambda n: (
            f"## Section {n}\n\nThe parser reads the stream **once**, and `feed()` stays "
            f"linear in the size of the input; see [the docs](https://example.com/{n}).\n\n"
            "- read the chunk\n- hand out the events\n- keep the tail\n\n"
            f"```python\n{SNIPPET}```\n\n"
            f"| step | cost |\n|---|---|\n| feed | {n} µs |\n| close | 1 µs |\n\n"
        ),
    )


def _serve(path: Path | None) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "streamblocks", "view", str(path) if path else "-", "--no-open"],
        stdin=subprocess.PIPE if path is None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    found = re.search(r"http://\S+", process.stdout.readline())
    assert found
    return process, found.group(0)


def _two_frames(page: Any) -> None:
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _until(page: Any, expression: str, timeout: float = 600.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => Boolean({expression})"):
        if time.monotonic() > deadline:
            raise TimeoutError(expression)
        time.sleep(0.02)


RUN = "document.querySelector('sb-run')"
FRAMES = "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
TOGGLE = f"""async () => {{
  const started = performance.now();
  document.querySelector("sb-toolbar button[data-kind=thinking]").click();
  {FRAMES};
  return performance.now() - started;
}}"""
SCROLL = f"""async () => {{
  const started = performance.now();
  window.scrollBy(0, -20000);
  {FRAMES};
  return performance.now() - started;
}}"""
"""A toggle and a scroll timed in the page, to the second animation frame after (drawn)."""


MARKS = "Object.fromEntries(performance.getEntriesByType('mark').map(m => [m.name, m.startTime]))"


def _to_end(page: Any) -> float:
    """Milliseconds from pressing End to the run's last row drawn at the window's
    bottom (NaN, said why, when it is never reached)."""
    started = time.perf_counter()
    page.keyboard.press("End")
    try:
        _until(
            page,
            f"{RUN}.list.drawn.at(-1) === {RUN}.list.shown.at(-1)"
            " && innerHeight + scrollY >= document.documentElement.scrollHeight - 2",
            timeout=60,
        )
    except TimeoutError:  # the last row never drawn: say how tall the list is
        tall = page.evaluate(f"[{RUN}.list.offsets[{RUN}.list.shown.length], scrollY]")
        print(f"  End did not reach the last row: list {tall[0]:.0f} px, at {tall[1]:.0f}")
        return float("nan")
    return (time.perf_counter() - started) * 1000


def _cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user + system), from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_time(path: Path) -> tuple[float, float]:
    """The wall time to read the whole of ``/events?batch`` (what the page reads) with no
    browser, and the CPU time the server spent on the run (its CPU time at the end less
    what it had spent when it printed its address: the imports)."""
    process, url = _serve(path)
    try:
        at_start = _cpu_seconds(process.pid)
        started = time.perf_counter()
        urllib.request.urlopen(url + "events?batch").read()
        wall = (time.perf_counter() - started) * 1000
        return wall, (_cpu_seconds(process.pid) - at_start) * 1000
    finally:
        process.terminate()
        process.wait()


def _pss_mb(pid: int) -> float:
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return float("nan")
    found = re.search(r"^Pss:\s+(\d+) kB", rollup, re.M)
    return int(found.group(1)) / 1024 if found else float("nan")


def renderer_mb(browser: Any) -> float:
    """The page's whole memory: the largest renderer process's proportional set size
    (PSS, Linux's /proc). The JS heap is only a part of it; the DOM, layout, style and
    the page's code are the rest."""
    cdp = browser.new_browser_cdp_session()
    try:
        infos = cdp.send("SystemInfo.getProcessInfo")["processInfo"]
    finally:
        cdp.detach()
    sizes = [_pss_mb(info["id"]) for info in infos if info["type"] == "renderer"]
    return max((size for size in sizes if size == size), default=float("nan"))


def one_round(browser: Any, path: Path) -> dict[str, float]:
    process, url = _serve(path)
    try:
        at_start = _cpu_seconds(process.pid)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(url)
        _until(page, "document.body.dataset.rendered")
        server_cpu = _cpu_seconds(process.pid) - at_start
        marks = page.evaluate(MARKS)
        to_end = _to_end(page)
        toggle = page.evaluate(TOGGLE)
        scroll = page.evaluate(SCROLL)
        cdp.send("HeapProfiler.enable")
        cdp.send("HeapProfiler.collectGarbage")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        renderer = renderer_mb(browser)
        rows = page.evaluate(f"{RUN}.list.items.length")
        page.close()
    finally:
        process.terminate()
        process.wait()
    return {
        "first event (ms)": marks["sb-first-event"],
        "first row (ms)": marks["sb-first-row"],
        "all events applied (ms)": marks["sb-rendered"],
        "scrollable to the end (ms)": marks["sb-rendered"] + to_end,
        "toggle (ms)": toggle,
        "20,000 px scroll (ms)": scroll,
        "JS heap (MB)": metrics["JSHeapUsedSize"] / 1e6,
        "page process (MB, PSS)": renderer,
        "DOM nodes": metrics["Nodes"],
        "main thread busy (ms)": metrics["TaskDuration"] * 1000,
        "server CPU (ms)": server_cpu * 1000,
        "rows": rows,
    }


def saved_round(browser: Any, path: Path) -> dict[str, float]:
    """The same input saved as one file (``view FILE --html OUT``) and opened from disk:
    the first row, every event applied and the end reached, from navigation start."""
    out = path.with_suffix(".html")
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "streamblocks", "view", str(path), "--html", str(out)],
        check=True,
        capture_output=True,
    )
    written = (time.perf_counter() - started) * 1000
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(out.as_uri())
    _until(page, "document.body.dataset.rendered")
    marks = page.evaluate(MARKS)
    to_end = _to_end(page)
    page.close()
    return {
        "file written (ms)": written,
        "file (MB)": out.stat().st_size / 1e6,
        "first row (ms)": marks["sb-first-row"],
        "all events applied (ms)": marks["sb-rendered"],
        "scrollable to the end (ms)": marks["sb-rendered"] + to_end,
    }


def live_round(browser: Any, seconds: float, rate: int = 1000) -> dict[str, float]:
    """A live page fed ``rate`` events a second: how far behind the drawn text is."""
    process, url = _serve(None)
    assert process.stdin is not None
    stdin = process.stdin
    written = [0]
    samples: list[float] = []

    def write() -> None:
        stdin.write(
            json.dumps(
                {
                    "type": "message_start",
                    "message": {
                        "id": "m",
                        "type": "message",
                        "role": "assistant",
                        "model": "x",
                        "content": [],
                        "usage": {"input_tokens": 1, "output_tokens": 1},
                    },
                }
            )
            + "\n"
        )
        stdin.write(
            '{"type": "content_block_start", "index": 0, "content_block": '
            '{"type": "text", "text": ""}}\n'
        )
        stdin.flush()
        started = time.perf_counter()
        total = int(seconds * rate)
        while written[0] < total:
            due = min(total, int((time.perf_counter() - started) * rate))
            lines = [
                json.dumps(
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {
                            "type": "text_delta",
                            "text": f"w{n} " + ("\n\n" if n % 50 == 49 else ""),
                        },
                    }
                )
                for n in range(written[0], due)
            ]
            if lines:
                stdin.write("\n".join(lines) + "\n")
                stdin.flush()
                written[0] = due
            time.sleep(0.005)

    try:
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(url)
        _until(page, f"{RUN}.dataset.state === 'waiting'", 30)
        writer = threading.Thread(target=write)
        writer.start()
        while writer.is_alive():
            time.sleep(0.25)
            sent = written[0]
            tail = page.evaluate(f"{RUN}.list.drawn.at(-1)?.el?.textContent.slice(-40) ?? ''")
            found = re.findall(r"w(\d+)", tail)
            if found and sent:
                samples.append(max(0, sent - 1 - int(found[-1])) / rate)
        writer.join()
        page.close()
    finally:
        stdin.close()
        process.terminate()
        process.wait()
    return {
        "events sent": written[0],
        "median lag (s)": statistics.median(samples) if samples else float("nan"),
        "max lag (s)": max(samples) if samples else float("nan"),
    }


def reader_cpu(path: Path, part: str) -> float:
    """The CPU seconds of the server's reader on ``path``: the library alone, or the
    whole reader (the library and the viewer's conversion into the page's messages)."""
    from streamblocks.cli.commands.view import _processor
    from streamblocks.ext.agui import AGUIOutputAdapter
    from streamblocks.runs import live as source
    from streamblocks.view import runs

    options = argparse.Namespace(adapter=None, registry=None, markup=None)
    processor = _processor(options)
    AGUIOutputAdapter()  # imports the AG-UI SDK (the server has, before a page connects)
    gc.set_threshold(50_000, 50, 1000)  # as the server sets it (and reads without it)
    with path.open("rb") as handle:
        items = source.read(handle)
        started = time.process_time()
        # as the server reads (an older source, to compare with, reads with it on)
        read: Any = getattr(runs, "without_gc_while", lambda read, *args: read(*args))
        if part == "library":
            wanted = (item for item in items if not isinstance(item, source.BadInput))
            read(lambda: all(True for _ in processor.process(wanted)))
        else:
            read(runs.produce, runs.Run(), processor, items)
        return time.process_time() - started


def reader_rounds(path: Path, parts: list[str], rounds: int) -> dict[str, float]:
    """Medians of ``rounds`` interleaved runs of each part, each in a fresh process."""
    found: dict[str, list[float]] = {part: [] for part in parts}
    for _ in range(rounds):
        for part in parts:
            here = Path(__file__)
            code = (
                f"import sys; from pathlib import Path; sys.path.insert(0, {str(here.parent)!r});"
                f"import {here.stem} as bench;"
                f"print(bench.reader_cpu(Path({str(path)!r}), {part!r}))"
            )
            out = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            )
            found[part].append(float(out.stdout.strip().splitlines()[-1]))
    return {part: statistics.median(times) for part, times in found.items()}


READER_PARTS = ["library", "viewer"]
KINDS = {
    "claude": ("Claude transcript", "claude.jsonl", claude_transcript),
    "codex": ("Codex transcript", "codex.jsonl", codex_transcript),
    "markdown": ("dense markdown reply", "reply.md", markdown_reply),
    "sections": ("one long markdown reply", "long.md", sections_reply),
}


def inputs(folder: str, sizes: list[float], kinds: list[str]) -> Iterator[tuple[str, Path, float]]:
    """Each input of each size and kind, written to ``folder`` when its turn comes (one
    at a time: a 50 MB input is not kept while another is measured): its title, its
    path and its size in MB."""
    for mb in sizes:
        for kind in kinds:
            title, name, make = KINDS[kind]
            path = Path(folder, name)
            path.write_text(make(int(mb * 1_000_000)))
            yield title, path, path.stat().st_size / 1e6


def _print(name: str, rounds: list[dict[str, float]]) -> None:
    print(f"{name}, median of {len(rounds)} (load {os.getloadavg()[0]:.1f}):", flush=True)
    for key in rounds[0]:
        print(f"  {key:28} {statistics.median(r[key] for r in rounds):10.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, nargs="+", default=[10.0])
    parser.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--live-seconds", type=float, default=10.0)
    parser.add_argument("--no-server-time", action="store_true")
    parser.add_argument(
        "--saved", action="store_true", help="also open each input saved with --html, from disk"
    )
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--reader", action="store_true", help="the server's reader alone")
    parser.add_argument("--part", choices=["library", "viewer"], nargs="+")
    args = parser.parse_args()
    if args.reader:
        reader_main(args)
        return
    from playwright.sync_api import sync_playwright

    print(f"load average at start: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
        for title, path, size in inputs(folder, args.mb, args.kinds):
            if not args.no_server_time:
                wall, cpu = server_time(path)
                print(
                    f"{title} {size:.1f} MB: server sends all in {wall:.0f} ms "
                    f"({cpu:.0f} ms of CPU); load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
                found = reader_rounds(path, READER_PARTS, args.rounds)
                _print_reader(title, size, found, args.rounds)
            rounds = [one_round(browser, path) for _ in range(args.rounds)]
            _print(f"{title} {size:.1f} MB", rounds)
            if args.saved:
                rounds = [saved_round(browser, path) for _ in range(args.rounds)]
                _print(f"{title} {size:.1f} MB saved as one file, from disk", rounds)
        if args.live_seconds:
            rounds = [live_round(browser, args.live_seconds) for _ in range(args.rounds)]
            _print(f"live, 1,000 events/s for {args.live_seconds:g} s", rounds)
        browser.close()
    print(f"load average at the end: {os.getloadavg()}", flush=True)


def _print_reader(title: str, size: float, found: dict[str, float], rounds: int) -> None:
    """The reader's CPU time alone (:func:`reader_rounds`): the library's, and the viewer's."""
    shown = ", ".join(f"{part} {seconds:.2f} s" for part, seconds in found.items())
    if len(found) == 2:
        shown += f"; the viewer adds {found['viewer'] - found['library']:.2f} s"
    print(f"{title} {size:.1f} MB, reader alone, CPU medians of {rounds:g}: {shown}", flush=True)
    print(f"  (load {os.getloadavg()[0]:.1f})", flush=True)


def reader_main(args: argparse.Namespace) -> None:
    parts = args.part or READER_PARTS
    with tempfile.TemporaryDirectory() as folder:
        for title, path, size in inputs(folder, args.mb, args.kinds):
            if args.rounds == 1 and len(parts) == 1:  # in this process (for a profiler)
                seconds = reader_cpu(path, parts[0])
                print(f"{title} {size:.1f} MB, {parts[0]}: {seconds:.2f} s CPU", flush=True)
                continue
            _print_reader(title, size, reader_rounds(path, parts, args.rounds), args.rounds)


if __name__ == "__main__":
    main()
