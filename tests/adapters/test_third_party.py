"""The example third-party adapter, installed with pip into a fresh virtual environment,
is discovered through its entry point and auto-detected without any import by the user."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "third_party_adapter"

USER_SCRIPT = textwrap.dedent(
    """
    import json, sys, warnings
    warnings.simplefilter("error")
    from streamblocks import BlockRegistry, StreamBlockProcessor
    from streamblocks.adapters import available

    registry = BlockRegistry()
    registry.register("note")
    events = [
        {"echolog": "token", "text": "Hi\\n!!n1:no"},
        {"echolog": "token", "text": "te\\nbody\\n!!end\\nbye"},
        {"echolog": "usage", "in": 5, "out": 7},
        {"echolog": "done", "reason": "truncated"},
    ]
    loaded_before = "echolog_streamblocks" in sys.modules
    out = list(StreamBlockProcessor(registry).process(events))
    info = {i.name: i._asdict() for i in available()}
    print(json.dumps({
        "loaded_before": loaded_before,
        "text": "".join(e.text for e in out if e.type == "TEXT_DELTA"),
        "blocks": [[e.block.id, e.block.content] for e in out if e.type == "BLOCK_END"],
        "passthrough": [e.event for e in out if e.type == "PASSTHROUGH"],
        "stop": out[-1].stop_reason.value,
        "usage": [out[-1].usage.input_tokens, out[-1].usage.output_tokens],
        "echolog": info.get("echolog"),
        "builtins": sorted(n for n, i in info.items() if i["builtin"] and i["loaded"]),
    }))
    """
)


@pytest.fixture(scope="module")
def env_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv that sees this environment's packages (streamblocks, pydantic...) through
    a ``.pth`` file, with the example installed into it by pip."""
    home = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(home)
    python = home / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    outer = sysconfig.get_paths()["purelib"]
    Path(purelib, "_outer_env.pth").write_text(f"import site; site.addsitedir({outer!r})\n")
    # Build offline when the build backend is at hand; otherwise pip fetches it.
    offline = importlib.util.find_spec("hatchling") is not None
    source = home / "src"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__"))
    command = [
        sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
        "--disable-pip-version-check", *(["--no-build-isolation"] if offline else []),
        str(source),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return python


def test_discovered_and_detected_without_import(env_python: Path) -> None:
    result = subprocess.run(
        [env_python, "-c", USER_SCRIPT], capture_output=True, text=True, cwd=env_python.parent
    )
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["loaded_before"] is False
    assert got["text"] == "Hi\nbye"
    assert got["blocks"] == [["n1", "body\n"]]
    assert got["passthrough"] == [{"echolog": "usage", "in": 5, "out": 7}]
    assert got["stop"] == "max_tokens"
    assert got["usage"] == [5, 7]
    echolog = got["echolog"]
    assert echolog["loaded"] is True
    assert echolog["builtin"] is False
    assert echolog["distribution"] == "echolog-streamblocks"
    assert echolog["version"] == "0.3.0"
    assert echolog["value"] == "echolog_streamblocks:EchoLogInputAdapter"
    assert got["builtins"] == [
        "agui",
        "anthropic",
        "claude_agent_sdk",
        "claude_cli",
        "codex_cli",
        "gemini",
        "langchain",
        "ollama",
        "openai",
        "openai_agents",
        "pydantic_ai",
    ]


def test_conformance_kit_runs_as_pytest_plugin(env_python: Path) -> None:
    result = subprocess.run(
        [
            env_python,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "--rootdir",
            str(EXAMPLE),
            "test_echolog.py",
        ],
        capture_output=True,
        text=True,
        cwd=EXAMPLE,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "13 passed" in result.stdout
