"""``request()``: a conversation as the keyword arguments of a provider's streaming call.

::

    kw = request(history, provider="anthropic", tools=tools, output=Answer)
    stream = client.messages.create(model=MODEL, max_tokens=1024, stream=True, **kw)

Everything but the model, the token limit and ``stream``. Each provider's rules live in
its own ``ext`` package (``streamblocks.ext.anthropic.request``...), as plain dicts: no
SDK is imported. :func:`read_request` reads such arguments back into messages (what a
test asserts a loop sent; ``MockProvider`` uses it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from .content import Message
from .tools import PROVIDERS, Tools, finish_spec, provider_module


def request(
    messages: Iterable[Message],
    *,
    provider: str,
    tools: Tools | Iterable[Any] | None = None,
    output: type[BaseModel] | None = None,
    native_output: bool = False,
) -> dict[str, Any]:
    """The keyword arguments of ``provider``'s streaming call for ``messages``.

    ``provider``: ``"openai"`` (Chat Completions), ``"openai-responses"``,
    ``"anthropic"`` or ``"gemini"``. ``tools``: a :class:`Tools` (or the functions and
    models to make one). ``output``: a pydantic model the step must end with; it adds
    the finish tool (``FINISH_TOOL``) whose arguments are the answer, or with
    ``native_output=True`` the provider's own JSON-schema mode (OpenAI
    ``response_format``/``text.format``, Gemini ``response_schema``; Anthropic has
    none: ``ValueError``). ``collect(..., output=Model)`` reads the answer either way.
    """
    module = provider_module(provider)
    toolset = tools if isinstance(tools, Tools) or tools is None else Tools(tools)
    specs = toolset.specs() if toolset is not None else []
    if output is not None and not native_output:
        specs.append(finish_spec(output))
    native = output if native_output else None
    if native_output and output is None:
        raise ValueError("native_output=True needs output=<a pydantic model>")
    messages = list(messages)
    for message in messages:
        if not isinstance(message, Message):
            raise TypeError(
                f"request() takes streamblocks.content.Message objects, got {message!r}"
            )
    return module.build(messages, specs, native)  # type: ignore[no-any-return]


def read_request(kw: dict[str, Any], *, provider: str) -> list[Message]:
    """The messages of a request :func:`request` wrote (tool results as ``"tool"``
    messages again, system text as one system message)."""
    return provider_module(provider).read(kw)  # type: ignore[no-any-return]


__all__ = ["PROVIDERS", "read_request", "request"]
