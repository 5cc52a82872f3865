"""The page as one self-contained HTML file: ``streamblocks view RUN --html OUT.html``.

The same page the server serves (its stylesheets, highlight.js and the JavaScript
modules), inlined, with the run's encoded AG-UI events in it: no server, no network,
opened from disk. The modules are joined into one inline module script, each in its
own function scope, its ``import`` lines turned into reads of the modules before it
(:func:`bundle`). The events are JSON arrays in ``<script type="application/json">``
elements, batched as the server batches ``/events?batch`` (a screenful first), which the
page reads one by one as it would read the server's messages. A Content-Security-Policy
``<meta>`` allows exactly the file's own inline scripts and styles (by their SHA-256),
no connection and no other origin, and requires Trusted Types, as the server's header
does.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from .convert import viewer_event
from .runs import Run, screenful
from .wire import encode

_IMPORT = re.compile(r'^import\s*(?:\{([^}]*)\}\s*from\s*)?"\./([\w.-]+\.js)";[ \t]*$', re.M)
_EXPORT_DECLARED = re.compile(r"^export\s+(?:const|let|function|class)\s+([A-Za-z_$][\w$]*)", re.M)
_EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\};[ \t]*$", re.M)
_EXPORT_ANY = re.compile(r"^\s*export\b", re.M)
_IMPORT_ANY = re.compile(r"^\s*import\b|\bimport\(", re.M)
FIRST_BATCH = 200  # events in the first batch: a screenful, drawn before the rest is read
BATCH = 5000  # events in each later batch (as /events?batch)


class PageError(Exception):
    """The page's sources use a form the bundler does not know (a bug of the project)."""


def _names(spec: str) -> list[tuple[str, str]]:
    """``a, b as c`` → ``[("a", "a"), ("b", "c")]``."""
    pairs = []
    for part in spec.split(","):
        words = part.split()
        if not words:
            continue
        if len(words) == 3 and words[1] == "as":
            pairs.append((words[0], words[2]))
        elif len(words) == 1:
            pairs.append((words[0], words[0]))
        else:
            raise PageError(f"cannot read the import or export {part.strip()!r}")
    return pairs


def _variable(module: str) -> str:
    return "__sb_" + re.sub(r"\W", "_", module.removesuffix(".js"))


def _module(name: str, source: str, order: list[str], folder: Path, seen: set[str]) -> str:
    """The module ``name`` as a function scope returning its exports (its imports
    bundled before it, into ``order``)."""
    lines = []
    for match in _IMPORT.finditer(source):
        spec, imported = match.group(1), match.group(2)
        _visit(imported, folder, order, seen)
        if spec is not None:
            fields = ", ".join(a if a == b else f"{a}: {b}" for a, b in _names(spec))
            lines.append(f"const {{ {fields} }} = {_variable(imported)};")
    body = _IMPORT.sub("", source)
    if _IMPORT_ANY.search(body):
        raise PageError(f"{name}: an import the bundler cannot read")
    exported = [(n, n) for n in _EXPORT_DECLARED.findall(body)]
    for match in _EXPORT_LIST.finditer(body):
        exported += _names(match.group(1))
    body = _EXPORT_LIST.sub("", _EXPORT_DECLARED.sub(lambda m: m.group(0)[7:].lstrip(), body))
    if _EXPORT_ANY.search(body):
        raise PageError(f"{name}: an export the bundler cannot read")
    returned = ", ".join(a if a == b else f"{b}: {a}" for a, b in exported)
    return (
        f"const {_variable(name)} = (() => {{ // {name}\n"
        + "\n".join(lines)
        + f"\n{body}\nreturn {{ {returned} }};\n}})();\n"
    )


def _visit(name: str, folder: Path, order: list[str], seen: set[str]) -> None:
    if name in seen:
        return
    seen.add(name)
    source = (folder / name).read_text(encoding="utf-8")
    order.append(_module(name, source, order, folder, seen))


def bundle(folder: Path, entry: str = "app.js") -> str:
    """The modules reachable from ``entry`` in ``folder`` as one script, each module
    after the ones it imports."""
    order: list[str] = []
    _visit(entry, folder, order, set())
    return "".join(order)


def _inline(text: str, what: str) -> str:
    """Script ``text`` as the body of an inline ``<script>``: ``<!--``, ``<script`` and
    ``</script`` (which only occur in the sources' string and regex literals, as in
    highlight.js's ``/<!--/``) are written ``\\x3C…``, which means the same there."""
    return _style(re.sub(r"<(!--|/?script)", r"\\x3C\1", text, flags=re.I), what)


def _style(text: str, what: str) -> str:
    if re.search(r"</(script|style)|<!--|<script", text, re.I):
        raise PageError(f"{what} contains text that would end its inline element")
    return text


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _safe(json_text: str) -> str:
    """JSON text safe inside a ``<script>`` element: every ``<`` escaped (``<`` only
    occurs in strings, where ``\\u003c`` means the same)."""
    return json_text.replace("<", "\\u003c")


def batches(events: Sequence[str]) -> list[str]:
    """The run's encoded events as JSON arrays, batched as ``/events?batch`` (the
    first a screenful: at most 200 events, and stopped at 64 KB)."""
    out = []
    index, stop = 0, screenful(events, 0, min(len(events), FIRST_BATCH))
    while index < len(events):
        out.append("[" + ",".join(events[index:stop]) + "]")
        index, stop = stop, stop + BATCH
    return out


def standalone(static: Path, events: Sequence[str], info: dict[str, Any]) -> str:
    """The page of ``static`` (the package's ``static/`` folder) with ``events`` (each an
    encoded AG-UI event) inside it; ``info`` is what ``/info.json`` would answer."""
    index = (static / "index.html").read_text(encoding="utf-8")
    script = _inline(bundle(static / "js"), "the page's script")
    highlight = _inline((static / "vendor" / "highlight.min.js").read_text("utf-8"), "highlight.js")
    styles = []
    for match in re.finditer(r'<link rel="stylesheet" href="/static/([^"]+)"([^>]*)>', index):
        css = _style((static / match.group(1)).read_text(encoding="utf-8"), match.group(1))
        styles.append((css, match.group(2)))
    csp = "; ".join(
        [
            "default-src 'none'",
            "script-src " + " ".join([_digest(highlight), _digest(script)]),
            "style-src " + " ".join(_digest(css) for css, _ in styles),
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
            "require-trusted-types-for 'script'",
            "trusted-types sb-highlight",
        ]
    )
    head = "\n".join(
        [
            f'  <meta http-equiv="Content-Security-Policy" content="{csp}">',
            *(f"  <style{media}>{css}</style>" for css, media in styles),
            f"  <script>{highlight}</script>",
            f'  <script type="module">{script}</script>',
        ]
    )
    data = "\n".join(
        [
            f'<script type="application/json" id="sb-info">{_safe(json.dumps(info))}</script>',
            *(
                f'<script type="application/json" class="sb-batch">{_safe(batch)}</script>'
                for batch in batches(events)
            ),
        ]
    )
    head_end = index.index("</head>")
    head_start = index.index('  <link rel="stylesheet"')
    body_end = index.rindex("</body>")
    return (
        index[:head_start] + head + "\n" + index[head_end:body_end] + data + "\n" + index[body_end:]
    )


def static_dir() -> Path:
    """The page's files, shipped inside the package."""
    return Path(str(resources.files("streamblocks.view").joinpath("static")))


def saved(run: Run, title: str, redacted: bool = False) -> str:
    """The page with ``run`` as read so far (a run still under way ends with a
    ``stopped`` event saying it was saved before its end)."""
    events = list(run.events)
    if not run.done:
        reason = "the page was saved before the run ended"
        events.append(encode(viewer_event("stopped", {"reason": reason})))
    info = {"title": title, "live": False, "saved": True, "redacted": redacted}
    return standalone(static_dir(), events, info)
