"""gpt-oss (harmony): ``<|channel|>analysis<|message|>…<|end|>`` is thinking; a message
to ``functions.NAME`` (the recipient in the channel, ``<|channel|>commentary
to=functions.NAME``, or in the role, ``<|start|>assistant to=functions.NAME``) is a tool
call whose body runs to ``<|call|>`` or, since servers cut that stop token, to the end
of the stream; ``final`` and recipient-less ``commentary`` messages are visible text (also with the
``json`` content type, ``<|channel|>final<|constrain|>json<|message|>``).
Headers and ``<|start|>``, ``<|end|>``, ``<|return|>`` are never visible."""

from __future__ import annotations

import re

from ..grammar import Call, CallFormat, Grammar, arguments_after, json_object, need
from ..scan import EndSpec
from ..schema import ToolSchemas

_MESSAGE = "<|message|>"
_RECIPIENT = re.compile(r"\A\s*(?:to=)?([^\s<]+)")
_NAME = re.compile(r"\A\s*(?:to=)?functions\.(?P<name>[^\s<]+)(?=[\s<])")
_END = EndSpec(closers=("<|call|>", "<|end|>", "<|return|>"), strings='"')


def _call(body: str, schemas: ToolSchemas) -> list[Call]:
    """``functions.NAME`` + the rest of the header + ``<|message|>`` + JSON."""
    header, sep, arguments = body.partition(_MESSAGE)
    need(bool(sep), "the message header has no <|message|>")
    found = _RECIPIENT.match(header)
    need(found is not None, "the message has no recipient")
    assert found is not None
    recipient = found.group(1)
    need(recipient.startswith("functions."), f"the recipient {recipient!r} is not a function")
    name = recipient[len("functions.") :]
    need(bool(name), "the call has no name")
    return [Call(name, json_object(arguments, "the arguments"))]


def _calls(opener: str) -> CallFormat:
    return CallFormat(opener, _END, _call, name=_NAME, at_end=True, arguments=_ARGUMENTS)


_ARGUMENTS = arguments_after(r"\A[^<]*(?:<\|(?!message\|)[^|]*\|>[^<]*)*<\|message\|>")


# The headers of visible messages: ``final`` and recipient-less ``commentary``, with or
# without the JSON content type (what gpt-oss writes when asked for JSON: harmony#56).
_VISIBLE_HEADERS = tuple(
    f"<|channel|>{channel}{content_type}<|message|>"
    for channel in ("final", "commentary")
    for content_type in ("", "<|constrain|>json", " <|constrain|>json", " json")
)

HARMONY = Grammar(
    thinking=(("<|channel|>analysis<|message|>", "<|end|>"),),
    calls=tuple(
        _calls(opener)
        for opener in (
            "<|start|>assistant to=",
            "<|channel|>commentary to=",
            "<|channel|>analysis to=",
        )
    ),
    hidden=(
        "<|start|>assistant",
        *_VISIBLE_HEADERS,
        "<|end|>",
        "<|return|>",
        "<|call|>",
    ),
    start=(_calls("to="),),
)
