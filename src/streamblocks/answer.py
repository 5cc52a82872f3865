"""The structured output a reply writes as its text (the provider's JSON mode: OpenAI's
``response_format``, ``request(..., native_output=True)``), read as it streams, so that
``collect(..., output=Model, on_partial=fn)`` sees it grow as it does a finish call."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from .core.partial_json import PartialJson
from .core.partials import PartialAt
from .partial import partial_view


class JsonAnswer:
    """Reads a reply's text as a JSON object while it streams. A text whose first
    character (after blanks) is not ``{`` is not one, nor is one that stops being JSON
    or whose complete values do not fit the model: reading stops there and the final
    validation (``step.output_error``) says why."""

    __slots__ = ("_last_value", "_last_view", "_reader", "model", "reading")

    def __init__(self, model: type[BaseModel]) -> None:
        self.model = model
        self.reading: bool | None = None  # None until the first character that is not blank
        self._reader = PartialJson()
        self._last_value: Any = None
        self._last_view: BaseModel | None = None

    def add(self, text: str) -> BaseModel | None:
        """Read ``text``; the typed view of the object when it grew into something new
        to show, else ``None``."""
        if self.reading is None:
            start = text.lstrip()
            if not start:
                return None
            self.reading = start[0] == "{"
        if not self.reading:
            return None
        reader = self._reader
        reader.feed(text)
        value = reader.value() if reader.error is None else None
        if value is None:
            self.reading = reader.error is None
            return None
        if value == self._last_value:
            return None  # nothing new written (a key, a number not yet complete)
        try:
            view = partial_view(self.model, PartialAt(None, 0, value, reader.open_path()))
        except ValidationError:
            self.reading = False
            return None
        self._last_value = value
        if view is None or view == self._last_view:
            return None  # what grew is not shown yet (a Literal half written)
        self._last_view = view
        return view
