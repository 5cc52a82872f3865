"""The Claude CLI and Codex CLI adapters and the viewer's reader as they were before their
per-line work was cut (``a60f046``): the oracle the faster ones must agree with, event for
event and warning for warning (``tests/adapters/test_transcripts_same.py``).

They are read from the repository's history, not kept as a copy: each module's relative
imports are pointed at the other old modules where there is one, else at today's
package. Without the history (a source archive) the comparison is skipped.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BEFORE = "a60f046"
ROOT = Path(__file__).parents[2]
OLD = {  # the module's name today -> its name here
    "streamblocks.ext._base": "_base",
    "streamblocks.ext._jsonl": "_jsonl",
    "streamblocks.ext._subagents": "_subagents",
    "streamblocks.ext.claude_cli.results": "claude_cli_results",
    "streamblocks.ext.claude_cli.adapter": "claude_cli",
    "streamblocks.ext.codex_cli.adapter": "codex_cli",
    "streamblocks.runs.live": "source",
}
_RELATIVE = re.compile(r"^from (\.+)([\w.]*) import", re.MULTILINE)


def _source(module: str) -> str:
    path = "src/" + module.replace(".", "/") + ".py"
    try:
        shown = subprocess.run(
            ["git", "show", f"{BEFORE}:{path}"], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:
        pytest.skip("git is not installed", allow_module_level=True)
    if shown.returncode:
        pytest.skip(f"no history to read {path} at {BEFORE}", allow_module_level=True)
    return shown.stdout


def _absolute(module: str, match: re.Match[str]) -> str:
    package = module.split(".")[: -len(match[1])]
    target = ".".join([*package, match[2]] if match[2] else package)
    return f"from {__name__}.{OLD[target]} import" if target in OLD else f"from {target} import"


def _load(module: str, name: str) -> ModuleType:
    code = _RELATIVE.sub(lambda match: _absolute(module, match), _source(module))
    loaded = ModuleType(f"{__name__}.{name}")
    loaded.__file__ = f"<{module} at {BEFORE}>"
    sys.modules[loaded.__name__] = loaded
    exec(compile(code, loaded.__file__, "exec"), loaded.__dict__)
    return loaded


_base, _jsonl, _subagents, claude_cli_results, claude_cli, codex_cli, source = (
    _load(module, name) for module, name in OLD.items()
)
