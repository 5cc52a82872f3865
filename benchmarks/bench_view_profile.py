"""Where the page spends its time on one input: a Chromium performance trace.

    python benchmarks/bench_view_profile.py FILE [--top 25] [--trace OUT.json]
    python benchmarks/bench_view_profile.py --make sections --mb 2 [--top 25]

Serves ``FILE`` (or an input of ``bench_view.py``'s kinds, ``--make KIND --mb N``) with
``streamblocks view --no-open``, opens it in headless Chromium with a performance trace
recording (CDP ``Tracing``, the DevTools timeline categories and V8's sampling
profiler) until every event is applied, and prints: the first row and the end (the
page's marks), the main thread's time by kind of work (scripting, style, layout,
paint…, from the trace's top-level events) and the functions with the most self time
(from the profiler's samples). ``--trace`` keeps the trace, to open in DevTools'
Performance panel.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_view import ARGS, KINDS, RUN, _serve, _until

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "v8.execute",
    "disabled-by-default-v8.cpu_profiler",
    "blink.user_timing",
]
KIND_OF = {
    "FunctionCall": "scripting",
    "EvaluateScript": "scripting",
    "v8.compile": "scripting",
    "TimerFire": "scripting",
    "FireAnimationFrame": "scripting",
    "EventDispatch": "scripting",
    "RunMicrotasks": "scripting",
    "UpdateLayoutTree": "style",
    "ParseAuthorStyleSheet": "style",
    "Layout": "layout",
    "PrePaint": "paint",
    "Paint": "paint",
    "Layerize": "paint",
    "ParseHTML": "parse HTML",
    "MinorGC": "GC",
    "MajorGC": "GC",
    "V8.GC_SCAVENGER": "GC",
    "V8.GC_MARK_COMPACTOR": "GC",
}


def main_thread(events: list[dict[str, Any]]) -> tuple[int, int] | None:
    """The page's main thread ``(pid, tid)``: of the renderers' main threads (the
    browser's own pages have theirs), the one that ran the page's script."""
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    busy: collections.Counter[tuple[int, int]] = collections.Counter()
    for event in events:
        where = (event.get("pid"), event.get("tid"))
        if where in mains and event.get("name") == "FunctionCall":
            url = event.get("args", {}).get("data", {}).get("url", "")
            busy[where] += event.get("dur", 0) * ("/static/js/" in url or url.startswith("file:"))
    return busy.most_common(1)[0][0] if busy else None


def by_kind(events: list[dict[str, Any]], thread: tuple[int, int]) -> dict[str, float]:
    """Milliseconds of the main thread by kind: each complete event counted in its own
    time (its children of a known kind taken out), so nothing is counted twice."""
    spans = sorted(
        (
            e
            for e in events
            if (e.get("pid"), e.get("tid")) == thread and e.get("ph") == "X" and "dur" in e
        ),
        key=lambda e: (e["ts"], -e["dur"]),
    )
    totals: dict[str, float] = collections.defaultdict(float)
    stack: list[tuple[float, str]] = []  # (end, kind) of the open known-kind spans
    for span in spans:
        while stack and stack[-1][0] <= span["ts"]:
            stack.pop()
        kind = KIND_OF.get(span["name"])
        if kind is None:
            continue
        if stack:
            totals[stack[-1][1]] -= span["dur"] / 1000
        totals[kind] += span["dur"] / 1000
        stack.append((span["ts"] + span["dur"], kind))
    return dict(sorted(totals.items(), key=lambda item: -item[1]))


def self_times(events: list[dict[str, Any]], pid: int) -> collections.Counter[str]:
    """Milliseconds of self time per function of the page's process, from the trace's
    profile chunks."""
    nodes: dict[int, str] = {}
    counter: collections.Counter[str] = collections.Counter()
    for event in events:
        if event.get("name") != "ProfileChunk" or event.get("pid") != pid:
            continue
        data = event["args"]["data"].get("cpuProfile", {})
        for node in data.get("nodes", []):
            frame = node["callFrame"]
            where = frame.get("url", "").rsplit("/", 1)[-1]
            name = frame.get("functionName") or "(anonymous)"
            nodes[node["id"]] = f"{name} {where}:{frame.get('lineNumber', 0) + 1}"
        deltas = event["args"]["data"].get("timeDeltas", [])
        for node_id, delta in zip(data.get("samples", []), deltas, strict=False):
            counter[nodes.get(node_id, "?")] += delta / 1000
    return counter


def profile(path: Path, top: int, keep: str | None, chromium: str) -> None:
    from playwright.sync_api import sync_playwright

    process, url = _serve(path)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            browser.start_tracing(page=page, categories=CATEGORIES)
            page.goto(url)
            _until(page, "document.body.dataset.rendered")
            raw = browser.stop_tracing()
            marks = page.evaluate(
                "Object.fromEntries(performance.getEntriesByType('mark')"
                ".map(m => [m.name, Math.round(m.startTime)]))"
            )
            rows = page.evaluate(f"{RUN}.list.items.length")
            browser.close()
    finally:
        process.terminate()
        process.wait()
    if keep:
        Path(keep).write_bytes(raw)
    events = json.loads(raw)["traceEvents"]
    print(f"{path.name}, {path.stat().st_size / 1e6:.1f} MB, {rows:,} rows: marks (ms) {marks}")
    thread = main_thread(events)
    if thread is None:
        print("the page's main thread is not in the trace")
        return
    print("main thread by kind (ms):")
    for kind, ms in by_kind(events, thread).items():
        print(f"  {kind:12} {ms:10.1f}")
    print(f"functions by self time (ms), top {top}:")
    for name, ms in self_times(events, thread[0]).most_common(top):
        print(f"  {ms:10.1f}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--make", choices=list(KINDS))
    parser.add_argument("--mb", type=float, default=2.0)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--trace")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.make:
            _, name, make = KINDS[args.make]
            path = Path(folder, name)
            path.write_text(make(int(args.mb * 1_000_000)))
        elif args.file:
            path = Path(args.file)
        else:
            parser.error("name a FILE or --make KIND")
        profile(path, args.top, args.trace, args.chromium)


if __name__ == "__main__":
    main()
