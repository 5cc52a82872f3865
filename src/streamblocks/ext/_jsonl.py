"""What the agent-transcript adapters share: NDJSON lines from chunks cut anywhere.

An agent CLI (``claude -p --output-format stream-json``, ``codex exec --json``) writes one
JSON object per line. A pipe reader hands those lines over in arbitrary pieces: a line
cut in the middle, several lines in one read, a multi-byte UTF-8 character split between
two ``bytes`` chunks. :class:`LineAssembler` turns such chunks back into whole lines,
with no line-length limit (a 10 MB tool result is one line) and in linear time.

:class:`JSONLinesAdapter` is the base of the transcript adapters: through the session's
``frames`` hook it accepts raw ``str``/``bytes`` chunks, already-parsed dicts, or a JSON
array of them (what ``--output-format json --verbose`` prints), and reports malformed
input with an :class:`~streamblocks.core.errors.AdapterWarning` instead of failing.
"""

from __future__ import annotations

import codecs
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard

from ..adapters.protocols import EventCategory, Native
from ..core.errors import AdapterWarning
from ..core.events import StopReason, Usage
from ..core.json_values import loads
from ._base import QUESTIONS, SKIP, STEP_ANSWERS, ProviderAdapter, Step

_COMPACT_EVERY = 256


def is_mapping(value: Any) -> TypeGuard[Mapping[str, Any]]:
    """``isinstance(value, Mapping)``, fast for plain dicts (the ABC check is slow)."""
    return value.__class__ is dict or isinstance(value, Mapping)


class LineAssembler:
    """Whole lines out of ``str``/``bytes`` chunks cut anywhere (no length limit).

    A partial line is held as a list of pieces; every 256 pieces the new ones are joined
    into one, so a line fed a character at a time costs linear time and little memory.
    """

    __slots__ = ("_compacted", "_decoder", "_pieces")

    def __init__(self) -> None:
        self._pieces: list[str] = []
        self._compacted = 0
        self._decoder: Any = None

    def feed(self, chunk: str | bytes | bytearray | memoryview) -> list[str]:
        """The lines ``chunk`` completes, without their line ends (``\\n``, ``\\r\\n``)."""
        if isinstance(chunk, str):
            text = chunk
        else:
            if self._decoder is None:
                self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
            text = self._decoder.decode(bytes(chunk))
        lines: list[str] = []
        pieces = self._pieces
        start = 0
        while True:
            nl = text.find("\n", start)
            if nl < 0:
                break
            if pieces:
                pieces.append(text[start:nl])
                line = "".join(pieces)
                pieces.clear()
                self._compacted = 0
            else:
                line = text[start:nl]
            lines.append(line[:-1] if line.endswith("\r") else line)
            start = nl + 1
        if start < len(text):
            pieces.append(text[start:] if start else text)
            if len(pieces) - self._compacted > _COMPACT_EVERY:
                pieces[self._compacted :] = ["".join(pieces[self._compacted :])]
                self._compacted = len(pieces)
        return lines

    def end(self) -> list[str]:
        """The last line when the input did not end with a newline."""
        if self._decoder is not None:
            tail = self._decoder.decode(b"", True)
            if tail:
                self._pieces.append(tail)
        line = "".join(self._pieces)
        self._pieces.clear()
        self._compacted = 0
        return [line] if line.strip() else []


def _preview(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[:most] + "…"


class JSONLinesAdapter(ProviderAdapter):
    """Base of the adapters reading an agent CLI's JSON lines.

    ``frames(item)`` accepts a raw chunk (``str``/``bytes``), a parsed object (a
    mapping), or a list of them, and returns the events to analyse, in order; subclasses
    cut an object further with :meth:`_expand` (a message into its content parts) and
    name their event types in :attr:`tool_name` for the warnings.
    """

    tool_name = "agent"

    _lines: LineAssembler
    _array: list[str] | None
    _seen_content: bool
    _warned: set[str]

    def _reset(self) -> None:
        self._lines = LineAssembler()
        self._array = None  # a pretty-printed JSON array, collected until the end
        self._seen_content = False
        self._warned = set()

    # ------------------------------------------------------------------ input

    def frames(self, item: Any) -> list[Any]:
        """The events in one fed item (see the class docstring)."""
        if item.__class__ is dict:  # a parsed line: what the viewer feeds, line by line
            return self._expand(item)
        if isinstance(item, (str, bytes, bytearray, memoryview)):
            out: list[Any] = []
            for line in self._lines.feed(item):
                out.extend(self._line(line))
            return out
        if is_mapping(item):
            return self._expand(item)
        if isinstance(item, list):
            return [event for element in item for event in self._object(element)]
        self._warn(f"not a {self.tool_name} event: {type(item).__name__}", "type")
        return []

    def end_frames(self) -> list[Any]:
        """The events of a last line without its newline (or of a collected array)."""
        out: list[Any] = []
        for line in self._lines.end():
            out.extend(self._line(line))
        if self._array is not None:
            text, self._array = "\n".join(self._array), None
            out.extend(self._parse(text))
        return out

    def _line(self, line: str) -> list[Any]:
        if self._array is not None:
            self._array.append(line)
            return []
        stripped = line.strip()
        if not stripped:
            return []
        first = not self._seen_content
        self._seen_content = True
        if first and stripped.startswith("[") and not stripped.endswith("]"):
            self._array = [line]  # a JSON array over several lines: parse it at the end
            return []
        return self._parse(stripped)

    def _parse(self, text: str) -> list[Any]:
        try:
            value = loads(text)
        except RecursionError:
            self._warn(f"skipped a line nested too deeply to read: {_preview(text)!r}")
            return []
        except ValueError as exc:
            self._warn(f"skipped a line that is not JSON ({exc}): {_preview(text)!r}")
            return []
        if isinstance(value, list):  # `--output-format json --verbose`: one array
            return [event for element in value for event in self._object(element)]
        return self._object(value)

    def _object(self, value: Any) -> list[Any]:
        if is_mapping(value):
            return self._expand(value)
        self._warn(f"skipped a JSON value that is not an object: {_preview(repr(value))}")
        return []

    def _expand(self, event: Mapping[str, Any]) -> list[Any]:
        """The events one JSON object stands for (itself, by default)."""
        return [event]

    def _step(self, event: Any) -> Step:
        if event is self._last_event:
            return self._last_step
        try:
            step = self._analyze(event)
        except Exception as exc:  # a shape nobody foresaw: skip the event, keep the stream
            self._last_event = event
            self._last_step = SKIP
            self._warn(f"skipped an event it could not read ({type(exc).__name__}: {exc})")
            return SKIP
        self._last_event = event
        self._last_step = step
        return step

    # The session asks up to seven questions of each event, the last one analysed; five
    # are answered from its step, read here without a call more (a transcript has a
    # million events).

    def categorize(self, event: Any) -> EventCategory:
        return (self._last_step if event is self._last_event else self._step(event)).category

    def extract_text(self, event: Any) -> str:
        return (self._last_step if event is self._last_event else self._step(event)).text

    def stop_reason(self, event: Any) -> StopReason | None:
        return (self._last_step if event is self._last_event else self._step(event)).stop

    def usage(self, event: Any) -> Usage | None:
        return (self._last_step if event is self._last_event else self._step(event)).usage

    def native_events(self, event: Any) -> Sequence[Native]:
        return (self._last_step if event is self._last_event else self._step(event)).natives

    # ------------------------------------------------------------------ warnings

    def _warn(self, message: str, once: str | None = None) -> None:
        """An :class:`AdapterWarning`; with ``once``, only the first time per stream."""
        if once is not None:
            if once in self._warned:
                return
            self._warned.add(once)
        warnings.warn(f"{type(self).__name__}: {message}", AdapterWarning, stacklevel=4)

    def _unknown(self, kind: Any) -> None:
        self._warn(f"skipped events of unknown type {kind!r}", f"unknown:{kind!r}")

    def _missing(self, kind: Any, what: str) -> None:
        self._warn(f"skipped a {kind!r} event without {what}")


STEP_ANSWERS.update(getattr(JSONLinesAdapter, name) for name in QUESTIONS)

# ---------------------------------------------------------------------- normalising

LANGUAGES: Mapping[str, str] = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript",
    ".cjs": "javascript", ".jsx": "jsx", ".ts": "typescript", ".tsx": "tsx",
    ".rs": "rust", ".go": "go", ".java": "java", ".kt": "kotlin", ".swift": "swift",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp",
    ".rb": "ruby", ".php": "php", ".sh": "bash", ".bash": "bash", ".zsh": "zsh",
    ".ps1": "powershell", ".sql": "sql", ".html": "html", ".css": "css", ".scss": "scss",
    ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".xml": "xml",
    ".md": "markdown", ".rst": "rst", ".txt": "text", ".ini": "ini", ".cfg": "ini",
    ".lua": "lua", ".r": "r", ".scala": "scala", ".dart": "dart", ".vue": "vue",
    ".svelte": "svelte", ".ex": "elixir", ".exs": "elixir", ".hs": "haskell",
    ".ml": "ocaml", ".zig": "zig", ".tf": "hcl", ".proto": "protobuf",
}  # fmt: skip
"""File extension → the language name code highlighters use."""

FILE_NAMES: Mapping[str, str] = {
    "dockerfile": "dockerfile",
    "makefile": "makefile",
    "cmakelists.txt": "cmake",
}


def language_for(path: str) -> str | None:
    """The language of a file, from its name or extension (``None`` when unknown).

    The name and suffix are ``PurePosixPath``'s (the last part that is not empty nor
    ``.``; a dot inside it, not first nor last), found without building paths."""
    rest, name = path.replace("\\", "/"), ""
    while rest:
        rest, _, name = rest.rpartition("/")
        if name and name != ".":
            break
        name = ""
    name = name.lower()
    if name in FILE_NAMES:
        return FILE_NAMES[name]
    dot = name.rfind(".")
    return LANGUAGES.get(name[dot:]) if 0 < dot < len(name) - 1 else None


FILE_CHANGE_KINDS: Mapping[str, str] = {
    "add": "add", "added": "add", "create": "add", "created": "add", "new": "add",
    "modify": "modify", "modified": "modify", "update": "modify", "updated": "modify",
    "edit": "modify", "edited": "modify", "change": "modify", "changed": "modify",
    "delete": "delete", "deleted": "delete", "remove": "delete", "removed": "delete",
    "rename": "rename", "renamed": "rename", "move": "rename", "moved": "rename",
}  # fmt: skip
"""An agent's word for a file change → the one vocabulary of ``FileChangeBlock.kind``."""


def file_change_kind(word: Any) -> str:
    """``add``, ``modify``, ``delete`` or ``rename`` for an agent's own word (Codex says
    ``update``, Claude Code's Write says ``create``); an update that moves the file (a
    ``move_path``) is a ``rename``; anything unknown is a ``modify``."""
    if is_mapping(word):  # {"type": "update", "move_path": ...}
        if word.get("move_path"):
            return "rename"
        word = word.get("type")
    if isinstance(word, str):
        return FILE_CHANGE_KINDS.get(word.lower(), "modify")
    return "modify"


def text_of(content: Any) -> Any:
    """A tool result's content: a string as it is, a list of text parts joined, anything
    else unchanged."""
    if isinstance(content, list) and all(
        is_mapping(part) and part.get("type") == "text" for part in content
    ):
        return "".join(str(part.get("text", "")) for part in content)
    return content


def unified_diff(path: str, hunks: Iterable[Any]) -> str | None:
    """A unified diff from structured hunks (``oldStart``, ``oldLines``, ``newStart``,
    ``newLines``, ``lines`` with their ``+``/``-``/`` `` prefixes)."""
    parts: list[str] = []
    for hunk in hunks:
        if not is_mapping(hunk):
            continue
        lines = hunk.get("lines")
        if not isinstance(lines, list):
            continue
        header = (
            f"@@ -{hunk.get('oldStart', 0)},{hunk.get('oldLines', 0)} "
            f"+{hunk.get('newStart', 0)},{hunk.get('newLines', 0)} @@"
        )
        parts.append(header)
        parts.extend(str(line) for line in lines)
    if not parts:
        return None
    return f"--- a/{path.lstrip('/')}\n+++ b/{path.lstrip('/')}\n" + "\n".join(parts) + "\n"
