"""``Tools``: Python functions and pydantic models offered to a model as tools.

One list of tools serves every way a model can call them: each provider's native tool
API (:meth:`Tools.schemas`), gadget blocks written in the text by a model without one
(:meth:`Tools.prompt`, :meth:`Tools.register`), and running the calls that come back
(:meth:`Tools.run`, :meth:`Tools.arun`)::

    def add(a: int, b: int) -> int:
        "Add two integers."
        return a + b

    tools = Tools([add])
    tools.schemas("anthropic")  # [{"name": "add", "description": ..., "input_schema": ...}]
    result = tools.run(call)    # Message(role="tool", content=[ToolResultBlock(...)])

Arguments are validated (and coerced: ``"3"`` is ``3`` for an ``int``) against the
function's signature or the model before the tool runs. A call the model got wrong —
an unknown tool, invalid arguments — or a tool that raises gives a result with
``is_error=True`` whose content says why, for the model to read; it never raises.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic_core import to_jsonable_python

from .content import Message, ToolResultBlock
from .core.json_values import loads
from .core.registry import BlockRegistry
from .prompts import describe_model_fields
from .syntaxes import GadgetSyntax, Syntax

FINISH_TOOL = "__finish__"
"""The name of the tool whose arguments are a step's structured output (``output=``)."""

FINISH_DESCRIPTION = (
    "Give your final answer: call this tool once you are done, with the answer as its "
    "arguments. Do not call it before the other tools have answered."
)

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini")
"""The request formats :func:`streamblocks.request` and :meth:`Tools.schemas` write."""


class ToolSpec(NamedTuple):
    """A tool as every provider format needs it: name, description, JSON schema."""

    name: str
    description: str
    schema: dict[str, Any]


def provider_module(provider: str) -> Any:
    """The ``ext`` module that writes (and reads) ``provider``'s requests."""
    modules = {
        "openai": "openai.chat_request",
        "openai-responses": "openai.responses_request",
        "anthropic": "anthropic.request",
        "gemini": "gemini.request",
    }
    if provider not in modules:
        raise ValueError(f"provider must be one of {PROVIDERS}, got {provider!r}")
    return importlib.import_module(f"streamblocks.ext.{modules[provider]}")


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A model's JSON schema as a tool's input schema (its title dropped: the tool's
    name says it)."""
    schema = model.model_json_schema()
    schema.pop("title", None)
    return schema


def finish_spec(output: type[BaseModel]) -> ToolSpec:
    """The finish tool for the structured output ``output``."""
    doc = inspect.getdoc(output)
    description = FINISH_DESCRIPTION + (f" The answer: {doc}" if doc else "")
    return ToolSpec(FINISH_TOOL, description, model_schema(output))


@dataclass(frozen=True)
class Tool:
    """One tool: its name, description, argument model and what runs it."""

    name: str
    description: str
    arguments: type[BaseModel]
    """Validates the call's arguments (built from the signature, or the model itself)."""
    run: Callable[[BaseModel], Any]
    """Runs the tool on validated arguments (may return an awaitable)."""

    @property
    def spec(self) -> ToolSpec:
        return ToolSpec(self.name, self.description, model_schema(self.arguments))


class _Arguments(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _from_function(function: Callable[..., Any]) -> Tool:
    name = getattr(function, "__name__", None)
    if not isinstance(name, str) or not name.isidentifier():
        raise TypeError(f"a tool function needs a name, got {function!r}")
    fields: dict[str, Any] = {}
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except Exception:  # unresolvable annotations: the arguments are taken as they come
        hints = {}
    for param in inspect.signature(function).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD, param.POSITIONAL_ONLY):
            raise TypeError(
                f"tool {name!r}: parameter {param.name!r} must be a plain or keyword-only "
                "parameter (the model passes arguments by name)"
            )
        annotation = hints.get(param.name, Any)
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (annotation, default)
    model = create_model(name, __base__=_Arguments, **fields)

    def run(arguments: BaseModel) -> Any:
        return function(**{key: getattr(arguments, key) for key in fields})

    return Tool(name, inspect.getdoc(function) or "", model, run)


def _from_model(model: type[BaseModel]) -> Tool:
    def run(arguments: BaseModel) -> Any:
        method = getattr(arguments, "run", None)
        return method() if callable(method) else arguments.model_dump(mode="json")

    return Tool(model.__name__, inspect.getdoc(model) or "", model, run)


def as_tool(item: Any) -> Tool:
    """A :class:`Tool` from a function, a pydantic model class or a ``Tool``."""
    if isinstance(item, Tool):
        return item
    if isinstance(item, type) and issubclass(item, BaseModel):
        return _from_model(item)
    if callable(item):
        return _from_function(item)
    raise TypeError(f"a tool is a function or a pydantic model class, got {item!r}")


class Tools:
    """The tools a model may call (see the module docstring).

    ``items``: typed functions (the docstring is the description, the signature the
    arguments; sync or ``async def``), pydantic model classes (the docstring is the
    description; running one returns its validated fields, or what its ``run()``
    method returns) and :class:`Tool` objects.
    """

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for item in items:
            tool = as_tool(item)
            if tool.name in self._tools:
                raise ValueError(f"two tools are named {tool.name!r}")
            if tool.name == FINISH_TOOL:
                raise ValueError(f"{FINISH_TOOL!r} is reserved for structured output")
            self._tools[tool.name] = tool

    def __iter__(self) -> Any:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __repr__(self) -> str:
        return f"Tools([{', '.join(self._tools)}])"

    def specs(self, output: type[BaseModel] | None = None) -> list[ToolSpec]:
        """Name, description and JSON schema of each tool (and the finish tool)."""
        specs = [tool.spec for tool in self._tools.values()]
        return [*specs, finish_spec(output)] if output is not None else specs

    def schemas(self, provider: str, *, output: type[BaseModel] | None = None) -> list[Any]:
        """The tool list of ``provider``'s request (``"openai"``, ``"openai-responses"``,
        ``"anthropic"``, ``"gemini"``), with the finish tool when ``output`` is given."""
        return provider_module(provider).tool_list(self.specs(output))  # type: ignore[no-any-return]

    def partial(self, name: str, partial: Any) -> BaseModel | None:
        """The arguments of a call to tool ``name`` as far as written: ``partial`` is
        the call's :class:`~streamblocks.BlockDelta` (or its ``partial`` value), the
        result a :func:`~streamblocks.partial.partial_model` instance of the tool's
        argument model (every field optional), ``None`` before the first value. A
        complete argument of the wrong type raises :class:`pydantic.ValidationError`."""
        from .partial import partial_view

        return partial_view(self[name].arguments, partial)

    # -- gadget calls (models without a tool API) -----------------------------------

    def register(
        self,
        registry: BlockRegistry,
        *,
        syntax: Syntax | None = None,
        output: type[BaseModel] | None = None,
    ) -> BlockRegistry:
        """Register each tool (and the finish tool) as a gadget block type, so the
        processor turns the calls a model writes into ``step.tool_calls``.

        No content model is attached: a call with wrong arguments still comes out as a
        call, and :meth:`run` answers it with the reason (the model can fix it).
        """
        syntax = syntax if syntax is not None else GadgetSyntax()
        entries = [(t.name, t.description, t.arguments) for t in self._tools.values()]
        if output is not None:
            entries.append((FINISH_TOOL, finish_spec(output).description, output))
        for name, description, model in entries:
            registry.register(
                name,
                syntax=syntax,
                description=description or f"The tool {name}.",
                instructions=describe_model_fields("arguments", model, schema=True),
            )
        return registry

    def prompt(self, *, syntax: Syntax | None = None, output: type[BaseModel] | None = None) -> str:
        """Instructions for a model without a tool API: how to call these tools as
        gadget blocks (add them to the system prompt; :meth:`register` the same tools
        on the processor's registry)."""
        return self.register(BlockRegistry(), syntax=syntax, output=output).system_prompt()

    # -- running calls ---------------------------------------------------------------

    def _prepare(self, call: Any) -> tuple[str, str, Tool | None, BaseModel | str]:
        """The call's id and name, and the tool with validated arguments or the reason
        it cannot run."""
        call_id, name = str(_get(call, "id")), str(_get(call, "name"))
        error = _get(call, "error")
        if isinstance(error, str) and error:
            return call_id, name, None, error
        tool = self._tools.get(name)
        if tool is None:
            known = ", ".join(self._tools) or "none"
            return call_id, name, None, f"unknown tool {name!r}; the tools are: {known}"
        arguments = _get(call, "arguments")
        if isinstance(arguments, BaseModel):
            arguments = arguments.model_dump()
        if arguments is None:
            arguments = {}
        if isinstance(arguments, str):
            try:
                arguments = loads(arguments) if arguments.strip() else {}
            except ValueError as exc:
                return call_id, name, None, f"the arguments are not valid JSON: {exc}"
        try:
            return call_id, name, tool, tool.arguments.model_validate(arguments)
        except ValidationError as exc:
            return call_id, name, None, f"invalid arguments for {name}: {_errors(exc)}"

    def _start(self, call: Any) -> tuple[str, str, Any] | Message:
        """Validate and start the call: its value (an awaitable for an async tool), or
        the error result."""
        call_id, name, tool, arguments = self._prepare(call)
        if tool is None or isinstance(arguments, str):
            return _result(call_id, name, arguments, error=True)
        try:
            return call_id, name, tool.run(arguments)
        except Exception as exc:
            return _result(call_id, name, _failure(name, exc), error=True)

    def run(self, call: Any) -> Message:
        """Run one call (a :class:`~streamblocks.ToolCall` or a
        :class:`~streamblocks.content.ToolCallBlock`); the ``"tool"`` message to send back.

        An ``async def`` tool runs in a new event loop (use :meth:`arun` inside one).
        """
        started = self._start(call)
        if isinstance(started, Message):
            return started
        call_id, name, value = started
        try:
            return _result(
                call_id, name, _run_awaitable(value) if inspect.isawaitable(value) else value
            )
        except Exception as exc:
            return _result(call_id, name, _failure(name, exc), error=True)

    async def arun(self, call: Any) -> Message:
        """:meth:`run` for an event loop: ``async def`` tools are awaited (sync tools
        run directly, in the loop's thread)."""
        started = self._start(call)
        if isinstance(started, Message):
            return started
        call_id, name, value = started
        try:
            return _result(call_id, name, await value if inspect.isawaitable(value) else value)
        except Exception as exc:
            return _result(call_id, name, _failure(name, exc), error=True)


def _get(call: Any, key: str) -> Any:
    if isinstance(call, Mapping):
        return call.get(key)
    return getattr(call, key, None)


def _errors(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors(include_url=False):
        where = "/".join(str(part) for part in error["loc"]) or "(arguments)"
        parts.append(f"{where}: {error['msg']}")
    return "; ".join(parts)


def _failure(name: str, exc: Exception) -> str:
    return f"{name} failed: {type(exc).__name__}: {exc}"


def _run_awaitable(awaitable: Any) -> Any:
    try:
        asyncio.get_running_loop()
    except RuntimeError:

        async def wait() -> Any:
            return await awaitable

        return asyncio.run(wait())
    close = getattr(awaitable, "close", None)
    if callable(close):
        close()  # never awaited: do not leave a "never awaited" warning behind
    raise RuntimeError("an async tool inside a running event loop: use `await tools.arun(call)`")


def _result(call_id: str, name: str, value: Any, *, error: bool = False) -> Message:
    content = value if isinstance(value, str) else to_jsonable_python(value, fallback=str)
    block = ToolResultBlock(tool_call_id=call_id, name=name, content=content, is_error=error)
    return Message(role="tool", content=[block])


__all__ = [
    "FINISH_TOOL",
    "PROVIDERS",
    "Tool",
    "ToolSpec",
    "Tools",
    "as_tool",
    "finish_spec",
    "model_schema",
]
