"""Inputs the viewer tests show: the adapters' transcripts, the demo, text with blocks."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from adapters.transcripts import claude_tool_run, codex_run, jsonl

CUSTOM_TEXT = """\
# Release notes

The parser is **faster** now; see [the docs](https://example.com/docs) and `feed()`.

!!n1:note
Keep the *old* API for a release.
!!end

<cite url="https://example.com/paper">The streaming paper</cite>

```python
def feed(text):
    return len(text)
```

!!start
---
id: t1
block_type: todo
owner: ana
---
- ship it
!!end

Unclosed at the end:
!!n2:note
this never ends
"""

HOSTILE = """\
Look: <img src=x onerror=alert(1)> and <script>alert(2)</script> here.

!!x1:note
<img src=x onerror=alert(3)><script>alert(4)</script>
!!end

```html
<script>alert(5)</script><img src=x onerror=alert(6)>
```

[click](javascript:alert(7)) **<b onmouseover=alert(8)>bold</b>**

!!start
---
id: m1
block_type: todo
title: <img src=x onerror=alert(9)>
---
<svg onload=alert(10)>
!!end
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def claude_file(tmp_path: Path) -> Path:
    return write(tmp_path, "claude.jsonl", jsonl(claude_tool_run()))


def codex_file(tmp_path: Path) -> Path:
    return write(tmp_path, "codex.jsonl", jsonl(codex_run()))


def demo_file(tmp_path: Path) -> Path:
    text = resources.files("streamblocks._demo").joinpath("anthropic.ndjson").read_text("utf-8")
    return write(tmp_path, "demo.ndjson", text)
