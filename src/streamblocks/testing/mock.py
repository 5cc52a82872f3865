"""``MockProvider``: scripted model replies played back as a provider's stream events.

For tests of code that consumes a provider stream (an agent loop, a web endpoint)::

    provider = MockProvider(["Hello!", MockReply(tool_calls=[MockToolCall("ls", {})])])
    first = list(provider.stream(messages=[...]))   # the first reply's events
    second = list(provider.stream(messages=[...]))  # the second reply's events
    assert provider.calls == 2 and provider.requests[1] == {"messages": [...]}

A loop built with :func:`streamblocks.request` passes its keyword arguments straight
through (``provider.stream(**request(history, provider="anthropic", tools=tools))``);
:attr:`MockProvider.received` reads each one back into messages and tool names, so a
test asserts what the loop sent. :meth:`MockProvider.add_reply` scripts more replies
later; an exception in the script (:class:`MockRateLimitError`) is raised when that
stream is opened, as the SDK raises a rate limit, and the next call goes on.

Each reply is played as the chosen provider's events: the SDK's own objects when the
SDK is installed (``sdk_types=None``, the default, or ``True`` to insist), plain dicts
of the wire format otherwise (``sdk_types=False``). Either way, the input adapters'
auto-detection recognises them. Nothing touches the network.
"""

from __future__ import annotations

import importlib
import json
import typing
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any, NamedTuple

from ..content import Message
from ..core.events import StopReason
from ..request import read_request
from ..tools import provider_module
from .replies import MockReply, MockToolCall, stop_of
from .wire import BUILDERS

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "agui")
"""The stream formats :class:`MockProvider` can play."""


class MockProviderError(Exception):
    """Raised by a mock stream for a reply scripted with ``stop_reason="error"`` on a
    provider whose stream has no error event (the SDK would raise)."""


class MockRateLimitError(MockProviderError):
    """A scripted rate limit (HTTP 429): put it in the replies where the provider
    should refuse a call; ``retry_after`` is the wait it asks for, in seconds."""

    status_code = 429

    def __init__(self, message: str = "rate limit exceeded", *, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class MockRequest(NamedTuple):
    """One call as the provider received it."""

    messages: list[Message]
    """The conversation, read back from the request (tool results as ``"tool"``
    messages, the system text as one system message)."""
    tools: list[str]
    """The names of the tools offered (the finish tool included)."""
    kwargs: dict[str, Any]
    """The keyword arguments as passed."""


class MockProvider:
    """Plays scripted replies as provider stream events, one reply per call.

    ``replies``: :class:`MockReply`, a ``str`` (a text reply) or an exception (raised
    when the stream is opened). ``provider``: one of :data:`PROVIDERS`. ``chunk_size``:
    characters per text/thinking/argument event, or a function splitting a string into
    pieces. ``model``: the model name put in the events. After the last reply, further
    calls raise ``IndexError`` unless ``repeat=True`` (the last reply again).
    """

    def __init__(
        self,
        replies: Sequence[MockReply | str | BaseException] = (),
        *,
        provider: str = "openai",
        chunk_size: int | Callable[[str], Sequence[str]] = 4,
        sdk_types: bool | None = None,
        model: str = "mock-model",
        repeat: bool = False,
    ) -> None:
        if provider not in PROVIDERS:
            raise ValueError(f"provider must be one of {PROVIDERS}, got {provider!r}")
        if isinstance(chunk_size, int) and chunk_size < 1:
            raise ValueError("chunk_size must be at least 1")
        self.replies = list(replies)
        self.provider = provider
        self.chunk_size = chunk_size
        self.model = model
        self.repeat = repeat
        self.requests: list[dict[str, Any]] = []
        """The keyword arguments of each call, in order."""
        self._sdk = _sdk_builder(provider, sdk_types)

    def add_reply(self, *replies: MockReply | str | BaseException) -> MockProvider:
        """Script more replies, played after the ones already scripted."""
        self.replies.extend(replies)
        return self

    @property
    def received(self) -> list[MockRequest]:
        """Each call's request read back (see :class:`MockRequest`); a call made with
        other arguments than :func:`streamblocks.request` writes has no messages."""
        return [self._read(kwargs) for kwargs in self.requests]

    def _read(self, kwargs: dict[str, Any]) -> MockRequest:
        if self.provider == "agui" or not any(
            k in kwargs for k in ("messages", "input", "contents")
        ):
            return MockRequest([], [], kwargs)
        module = provider_module(self.provider)
        return MockRequest(
            read_request(kwargs, provider=self.provider), module.tool_names(kwargs), kwargs
        )

    @property
    def calls(self) -> int:
        """How many streams were opened."""
        return len(self.requests)

    @property
    def sdk_types(self) -> bool:
        """Whether events are the SDK's objects (else wire-format dicts)."""
        return self._sdk is not None

    # -- playing ---------------------------------------------------------------------

    def events(self, reply: MockReply | str) -> list[Any]:
        """The events of one reply (without recording a call)."""
        scripted = MockReply(text=reply) if isinstance(reply, str) else reply
        wire = BUILDERS[self.provider](self, scripted)
        if self._sdk is None:
            return wire
        if self._raises_errors:
            # The SDK raises on the provider's error event instead of yielding it.
            wire = [item for item in wire if item.get("type") != "error"]
        return [self._sdk(item) for item in wire]

    @property
    def _raises_errors(self) -> bool:
        return self.provider in ("openai", "gemini") or (
            self.provider == "anthropic" and self._sdk is not None
        )

    def _next(self, request: dict[str, Any]) -> tuple[list[Any], MockReply]:
        index = len(self.requests)
        self.requests.append(request)
        if index >= len(self.replies):
            if not (self.repeat and self.replies):
                raise IndexError(f"MockProvider has {len(self.replies)} replies; call {index + 1}")
            index = len(self.replies) - 1
        reply = self.replies[index]
        if isinstance(reply, BaseException):
            raise reply
        scripted = MockReply(text=reply) if isinstance(reply, str) else reply
        return self.events(scripted), scripted

    def stream(self, **request: Any) -> Iterator[Any]:
        """Open the next reply's stream (records ``request``)."""
        events, reply = self._next(request)
        return self._play(events, reply)

    def astream(self, **request: Any) -> AsyncIterator[Any]:
        """Open the next reply's stream as an async iterator (records ``request``)."""
        events, reply = self._next(request)
        return self._aplay(events, reply)

    def _play(self, events: list[Any], reply: MockReply) -> Iterator[Any]:
        yield from events
        self._raise_after(reply)

    async def _aplay(self, events: list[Any], reply: MockReply) -> AsyncIterator[Any]:
        for event in events:
            yield event
        self._raise_after(reply)

    def _raise_after(self, reply: MockReply) -> None:
        if reply.raise_error is not None:
            raise reply.raise_error
        if stop_of(reply) is StopReason.error and self._raises_errors:
            raise MockProviderError(reply.error_message)

    def pieces(self, text: str) -> list[str]:
        """``text`` cut as the stream will cut it."""
        if not text:
            return []
        size = self.chunk_size
        if callable(size):
            return [piece for piece in size(text) if piece]
        return [text[i : i + size] for i in range(0, len(text), size)]

    def dump(self, reply: MockReply | str) -> str:
        """One reply as NDJSON (wire format): a recording for ``streamblocks extract``."""
        scripted = MockReply(text=reply) if isinstance(reply, str) else reply
        wire = BUILDERS[self.provider](self, scripted)
        return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in wire)


# -- SDK types -----------------------------------------------------------------------


def _sdk_builder(provider: str, wanted: bool | None) -> Callable[[dict[str, Any]], Any] | None:
    if wanted is False:
        return None
    try:
        build = _SDK_LOADERS[provider]()
    except ImportError:
        if wanted:
            raise ImportError(
                f"MockProvider(sdk_types=True) for {provider!r} needs the provider's SDK: "
                f"pip install '.[{provider.split('-')[0]}]' in the streamblocks checkout"
            ) from None
        return None
    return build


def _openai_sdk() -> Callable[[dict[str, Any]], Any]:
    chunk = importlib.import_module("openai.types.chat").ChatCompletionChunk
    return chunk.model_validate  # type: ignore[no-any-return]


def _type_adapter(module: str, name: str) -> Callable[[dict[str, Any]], Any]:
    """A builder choosing the member of the SDK's event union by its ``type`` literal."""
    union = getattr(importlib.import_module(module), name)
    by_type: dict[str, Any] = {}
    for member in typing.get_args(typing.get_args(union)[0] if _annotated(union) else union):
        annotation = member.model_fields["type"].annotation
        for literal in typing.get_args(annotation):
            by_type[getattr(literal, "value", literal)] = member

    def build(item: dict[str, Any]) -> Any:
        return by_type[item["type"]].model_validate(item)

    return build


def _annotated(union: Any) -> bool:
    return typing.get_origin(union) is typing.Annotated


def _responses_sdk() -> Callable[[dict[str, Any]], Any]:
    return _type_adapter("openai.types.responses", "ResponseStreamEvent")


def _anthropic_sdk() -> Callable[[dict[str, Any]], Any]:
    return _type_adapter("anthropic.types", "RawMessageStreamEvent")


def _gemini_sdk() -> Callable[[dict[str, Any]], Any]:
    response = importlib.import_module("google.genai.types").GenerateContentResponse
    return response.model_validate  # type: ignore[no-any-return]


def _agui_sdk() -> Callable[[dict[str, Any]], Any]:
    return _type_adapter("ag_ui.core", "Event")


_SDK_LOADERS: dict[str, Callable[[], Callable[[dict[str, Any]], Any]]] = {
    "openai": _openai_sdk,
    "openai-responses": _responses_sdk,
    "anthropic": _anthropic_sdk,
    "gemini": _gemini_sdk,
    "agui": _agui_sdk,
}

__all__ = [
    "PROVIDERS",
    "MockProvider",
    "MockProviderError",
    "MockRateLimitError",
    "MockReply",
    "MockRequest",
    "MockToolCall",
]
