"""The core compiled with mypyc, against the interpreted core: does it build, does it
pass the core tests, and how much faster is it?

Run: ``python benchmarks/bench_compiled.py`` from a checkout with the dev extras (mypyc
ships with mypy; a C compiler and the Python headers are needed). Not part of CI; it
takes a few minutes. Options: ``--rounds N`` (default 7), ``--no-tests``, ``--keep``
(leave the build directory and print its path), ``--reuse DIR`` (test and time a kept
build without building again), ``-k EXPR`` (passed to pytest).

1. Copies ``src/streamblocks`` into a temporary directory and compiles the modules of
   ``core/`` and ``syntaxes/`` with mypyc. A module mypyc rejects is left interpreted
   and the build retried without it; so is a compiled module that fails when imported
   and one whose classes interpreted code subclasses (``Syntax``, ``LineParser``…).
   Each exclusion is printed with mypyc's (or the import's) first message.
2. Runs the core test suite against the compiled copy (``PYTHONPATH`` puts it first).
3. Times the same documents with the interpreted and the compiled package, each in its
   own worker process, rounds interleaved; prints the medians, each one's ratio to a
   bare loop over the same chunks measured in the same worker, and compiled ÷
   interpreted.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "syntaxes")
CORE_TESTS = [
    "tests/test_api.py",
    "tests/test_line_syntaxes.py",
    "tests/test_frontmatter_reader.py",
    "tests/test_xml.py",
    "tests/test_gadget.py",
    "tests/test_properties.py",
    "tests/test_xml_properties.py",
    "tests/test_gadget_properties.py",
    "tests/test_hostile.py",
    "tests/test_marker_limit.py",
    "tests/test_transforms.py",
    "tests/test_snapshot.py",
    "tests/test_abort.py",
    "tests/test_fuzz_regressions.py",
    "tests/test_reference.py",
]
_ERROR = re.compile(r"^(streamblocks/[\w/]+\.py):(\d+): error: (.*)$", re.MULTILINE)
_FRAME = re.compile(r'File "(streamblocks/[\w/]+\.py)", line (\d+)')
_IMPORTING = re.compile(r'File "([^"]+\.py)", line (\d+) in <module>')

WORKER = r"""
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
from documents import chunks, document, xml_document, xml_processor, processor
import streamblocks
cases = {
    "mixed, 4-char chunks": (processor(), chunks(document(200_000), 4)),
    "mixed, 1 KB chunks": (processor(), chunks(document(400_000), 1024)),
    "XML-dense, 4-char chunks": (xml_processor(), chunks(xml_document(200_000), 4)),
}
def bare(pieces):
    out = []
    for piece in pieces:
        out.append([piece])
    return len(out)
def session(proc, pieces):
    s = proc.session()
    n = 0
    for piece in pieces:
        n += len(s.feed(piece))
    return n + len(s.close())
result = {"compiled": streamblocks.core.session.__file__.endswith(".so")}
for name, (proc, pieces) in cases.items():
    gc.collect()
    t0 = time.perf_counter(); bare(pieces); t1 = time.perf_counter()
    session(proc, pieces); t2 = time.perf_counter()
    result[name] = [t1 - t0, t2 - t1]
print(json.dumps(result))
"""


def _env(src: Path | None) -> dict[str, str]:
    """The environment with ``src`` first on the import path (or nothing added)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return env


def modules(src: Path) -> list[str]:
    return sorted(
        str(path.relative_to(src))
        for package in PACKAGES
        for path in (src / "streamblocks" / package).glob("*.py")
    )


def mypyc(src: Path, files: list[str]) -> str:
    shutil.rmtree(src / "build", ignore_errors=True)
    for built in (*src.glob("*.so"), *src.glob("streamblocks/**/*.so")):
        built.unlink()
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *files], cwd=src, capture_output=True, text=True
    )
    return done.stdout + done.stderr if done.returncode else ""


CHECK = r"""
import importlib, pkgutil, sys
import streamblocks, streamblocks.testing
import streamblocks.core, streamblocks.syntaxes
for package in (streamblocks.core, streamblocks.syntaxes):
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
def compiled(module):
    return getattr(sys.modules.get(module), "__file__", "").endswith(".so")
bad = set()
for name, module in list(sys.modules.items()):
    if not name.startswith("streamblocks") or compiled(name):
        continue
    for value in vars(module).values():  # interpreted classes with compiled bases
        if isinstance(value, type) and value.__module__ == name:
            bad.update(b.__module__ for b in value.__mro__[1:] if compiled(b.__module__))
for module, name in EXTENSION_POINTS:  # classes users subclass in their own code
    base = getattr(importlib.import_module(module), name)
    try:
        type("Probe", (base,), {})
    except TypeError:
        bad.add(module)
print(" ".join(sorted(bad)))
"""
EXTENSION_POINTS = [
    ("streamblocks.syntaxes.base", "Syntax"),
    ("streamblocks.syntaxes.base", "LineParser"),
    ("streamblocks.core.registry", "BlockRegistry"),
]


def import_problems(src: Path) -> list[tuple[str, str]]:
    """``(module file, message)`` of each compiled module that breaks ``import``, or
    that interpreted code cannot subclass."""
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "faulthandler",
            "-c",
            f"EXTENSION_POINTS = {EXTENSION_POINTS!r}\n{CHECK}",
        ],
        cwd=ROOT,
        env=_env(src),
        capture_output=True,
        text=True,
    )
    if done.returncode == 0:
        reason = "interpreted classes subclass its classes (needs allow_interpreted_subclasses)"
        return [(name.replace(".", "/") + ".py", reason) for name in done.stdout.split()]
    err = done.stderr
    frames = _FRAME.findall(err)
    if frames:  # a compiled module raised while it was initialised
        return [(frames[-1][0], err.strip().splitlines()[-1])]
    found = _IMPORTING.findall(err)  # a crash: the module the last import statement named
    if found and "Segmentation fault" in err:
        path, line = found[0]
        statement = Path(path).read_text().splitlines()[int(line) - 1]
        named = re.search(r"from (\.+)([\w.]*) import", statement)
        if named is not None:
            base = Path(path).relative_to(src).parent
            for _ in range(len(named.group(1)) - 1):
                base = base.parent
            target = base / (named.group(2).replace(".", "/") + ".py")
            return [(str(target), f"segmentation fault while importing it ({statement.strip()})")]
    raise SystemExit(f"the compiled package does not import, and the cause is unclear:\n{err}")


def build(src: Path) -> tuple[list[str], dict[str, str]]:
    """Compile what compiles; return (compiled files, {left-out file: reason})."""
    files = modules(src)
    left_out: dict[str, str] = {}
    while files:
        output = mypyc(src, files)
        if output:
            errors = _ERROR.findall(output)
            if not errors:
                raise SystemExit(f"mypyc failed:\n{output[-3000:]}")
            for path, line, message in errors:
                if path in files:
                    files.remove(path)
                    left_out[path] = f"line {line}: {message}"
            continue
        problems = import_problems(src)
        if not problems:
            return files, left_out
        for path, message in problems:
            if path not in files:
                raise SystemExit(f"import failed in {path}, which is not compiled: {message}")
            files.remove(path)
            left_out[path] = f"import: {message}"
    return files, left_out


def run_tests(src: Path, extra: list[str]) -> int:
    """Each core test file against the compiled build, in its own process (a crash in
    one file does not hide the others); returns how many files did not pass."""
    print("\n== core tests against the compiled build", flush=True)
    bad = 0
    for test in (t for t in CORE_TESTS if (ROOT / t).exists()):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-o",
                "addopts=",
                "-p",
                "no:cacheprovider",
                "-rf",
                *extra,
                test,
            ],
            cwd=ROOT,
            env=_env(src),
            capture_output=True,
            text=True,
        )
        lines = done.stdout.strip().splitlines()
        if done.returncode < 0 or done.returncode > 5:
            verdict = f"CRASHED (exit {done.returncode})"
        else:
            verdict = lines[-1] if lines else f"exit {done.returncode}"
        print(f"{test}: {verdict}", flush=True)
        for line in lines:
            if line.startswith("FAILED"):
                print(f"    {line}")
        bad += done.returncode not in (0, 5)
    return bad


def timing(src: Path | None) -> dict[str, object]:
    import json

    env = _env(src)
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(ROOT / "benchmarks")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def benchmark(src: Path, rounds: int) -> None:
    print(f"\n== speed: {rounds} interleaved rounds, medians", flush=True)
    runs: dict[str, list[dict[str, object]]] = {"interpreted": [], "compiled": []}
    for _ in range(rounds):
        runs["interpreted"].append(timing(None))
        runs["compiled"].append(timing(src))
    assert all(not r["compiled"] for r in runs["interpreted"])
    compiled_session = all(r["compiled"] for r in runs["compiled"])
    if not compiled_session:
        print("(core/session.py is not compiled: the scanner itself still runs interpreted)")
    cases = [k for k in runs["interpreted"][0] if k != "compiled"]
    print(
        f"{'case':28} {'interpreted':>12} {'÷ bare':>7} {'compiled':>10} {'÷ bare':>7} {'ratio':>6}"
    )
    for case in cases:
        medians = {}
        for kind, results in runs.items():
            bare = statistics.median(r[case][0] for r in results)  # type: ignore[index]
            session = statistics.median(r[case][1] for r in results)  # type: ignore[index]
            medians[kind] = (session, session / bare)
        (ti, ri), (tc, rc) = medians["interpreted"], medians["compiled"]
        print(
            f"{case:28} {ti * 1e3:10.1f}ms {ri:6.1f}× {tc * 1e3:8.1f}ms {rc:6.1f}× {tc / ti:5.2f}×"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-tests", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the build directory")
    parser.add_argument("--reuse", type=Path, help="a kept build directory: skip the build")
    parser.add_argument("-k", dest="keyword")
    args = parser.parse_args()
    work = args.reuse or Path(tempfile.mkdtemp(prefix="streamblocks-mypyc-"))
    src = work / "src"
    try:
        if args.reuse is None:
            shutil.copytree(ROOT / "src" / "streamblocks", src / "streamblocks")
            print(f"== building with mypyc in {work}", flush=True)
            compiled, left_out = build(src)
            print(f"compiled ({len(compiled)}): " + ", ".join(compiled))
            for path, reason in left_out.items():
                print(f"left interpreted: {path}: {reason}")
            if not compiled:
                return 1
        status = 0
        if not args.no_tests:
            failed = run_tests(src, ["-k", args.keyword] if args.keyword else [])
            print(f"core tests: {'passed' if not failed else f'{failed} file(s) FAILED'}")
            status = 1 if failed else 0
        benchmark(src, args.rounds)
        return status
    finally:
        if args.keep or args.reuse:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
