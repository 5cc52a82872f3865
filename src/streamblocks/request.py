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
    thinking: bool | None = None,
) -> dict[str, Any]:
    """The keyword arguments of ``provider``'s streaming call for ``messages``.

    ``provider``: ``"openai"`` (Chat Completions), ``"openai-responses"``,
    ``"anthropic"`` or ``"gemini"``. ``tools``: a :class:`Tools` (or the functions and
    models to make one). ``output``: a pydantic model the step must end with; it adds
    the finish tool (``FINISH_TOOL``) whose arguments are the answer, or with
    ``native_output=True`` the provider's own JSON-schema mode (OpenAI
    ``response_format``/``text.format``, Gemini ``response_schema``; Anthropic has
    none: ``ValueError``). ``collect(..., output=Model)`` reads the answer either way.
    ``thinking``: the chat template's thinking switch of an open-weight model served by
    an OpenAI-compatible server (``provider="openai"``): ``extra_body`` carries it as
    ``chat_template_kwargs`` under each key the templates read; ``collect(...,
    request=kw)`` gives it (and the tools) to ``markup="auto"``.
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
    kw: dict[str, Any] = module.build(messages, specs, native)
    if thinking is not None:
        if provider != "openai":
            raise ValueError(
                f"thinking= is the chat template's switch of an OpenAI-compatible server "
                f"(provider='openai'), not of {provider!r}: use that API's own option"
            )
        kw["extra_body"] = {"chat_template_kwargs": template_switch(thinking)}
    return kw


def template_switch(thinking: bool) -> dict[str, Any]:
    """The ``chat_template_kwargs`` that turn thinking on or off, under every key the
    open-weight models' templates read (a template ignores the others): ``thinking``
    (DeepSeek, Kimi, GLM), ``enable_thinking`` (Qwen3, Hunyuan, Nemotron),
    ``thinking_mode`` (MiniMax M3)."""
    mode = "enabled" if thinking else "disabled"
    return {"thinking": thinking, "enable_thinking": thinking, "thinking_mode": mode}


def read_request(kw: dict[str, Any], *, provider: str) -> list[Message]:
    """The messages of a request :func:`request` wrote (tool results as ``"tool"``
    messages again, system text as one system message)."""
    return provider_module(provider).read(kw)  # type: ignore[no-any-return]


__all__ = ["PROVIDERS", "read_request", "request"]
