"""The processor: configuration shared by any number of streams, and the two thin
drivers (sync and async) that feed a session from an iterable."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Generator,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from typing import Any

from ..adapters.detection import adapter_hint
from ..adapters.protocols import InputAdapter, OutputAdapter
from ..transforms import DeltaTransform, compose_transforms
from .abort import AbortingSession, AbortPolicy, AbortSpec
from .drivers import AsyncEvents, Events, close_quietly, close_source, outgoing
from .errors import RegistryError, SnapshotError
from .limits import Limits
from .markup_hook import resolve_markup
from .registry import BlockRegistry, TypeTable
from .scan_plan import ScanPlan
from .session import Session
from .snapshot import load_session
from .syntax import InlineSyntax, Syntax, SyntaxPlan, default_syntax, settle_class_values

UNKNOWN_POLICIES = ("text", "error", "block")


class StreamBlockProcessor:
    """Extracts the blocks of ``registry`` from streams.

    ``syntax`` is the syntax of block types registered without one (default
    :class:`DelimiterPreambleSyntax`). ``input_adapter`` is ``"auto"`` (detect the
    provider from the first event), an adapter instance, or ``None`` (the stream is
    text). ``unknown`` decides what a marker naming an unregistered type is:
    ``"text"`` (default), ``"error"`` (a ``BLOCK_ERROR`` with ``UNKNOWN_TYPE``) or
    ``"block"`` (a generic, unvalidated block); or a mapping from syntax name to one of
    them, ``"*"`` for the others (``{"xml": "text", "*": "block"}``: unregistered HTML
    stays text, unknown ``!!`` types and gadget calls are generic blocks). With
    ``code_aware`` (default), fenced code the model shows is visible text in which no
    marker is recognised.
    ``transforms`` are :mod:`delta transforms <streamblocks.transforms>` applied, in
    order, to every stream's events after block extraction (a transform with
    ``for_stream()`` gets a fresh instance per stream). ``abort_on`` (error codes and/or
    predicates on events) ends a stream early: see :mod:`streamblocks.core.abort`.
    ``reference=True`` turns every fast path off (:mod:`streamblocks.testing.differential`).

    The processor holds no per-stream state: use it for any number of streams, one
    after another or concurrently.
    """

    def __init__(
        self,
        registry: BlockRegistry | Any,
        *,
        syntax: Syntax | Any | None = None,
        input_adapter: InputAdapter | str | None = "auto",
        output_adapter: OutputAdapter | None = None,
        limits: Limits | None = None,
        unknown: str | Mapping[str, str] = "text",
        code_aware: bool = True,
        transforms: Sequence[DeltaTransform] = (),
        abort_on: AbortSpec = None,
        markup: Any = None,
        reference: bool = False,
    ) -> None:
        # (``| Any`` above: the compiled build would reject a wrong type with its own
        # TypeError before these checks could name the mistake)
        if not isinstance(registry, BlockRegistry):
            raise RegistryError(f"registry must be a BlockRegistry, got {type(registry).__name__}")
        if syntax is not None and not isinstance(syntax, Syntax):
            raise RegistryError(f"syntax must be a Syntax, got {type(syntax).__name__}")
        if isinstance(input_adapter, str) and input_adapter != "auto":
            raise ValueError(
                f"input_adapter must be 'auto', an adapter or None, got {input_adapter!r}"
                + adapter_hint(input_adapter)
            )
        policies = [unknown] if isinstance(unknown, str) else list(unknown.values())
        for policy in policies:
            if policy not in UNKNOWN_POLICIES:
                raise ValueError(f"unknown must be one of {UNKNOWN_POLICIES}, got {policy!r}")
        self.registry = registry
        self.syntax = syntax if syntax is not None else default_syntax()
        self.input_adapter = input_adapter
        self.output_adapter = output_adapter
        self.limits = limits if limits is not None else Limits()
        self.unknown: str | dict[str, str] = unknown if isinstance(unknown, str) else dict(unknown)
        self.code_aware = code_aware
        self.transforms = tuple(transforms)
        compose_transforms(*self.transforms)  # checks that each one is a transform
        self.abort_on = abort_on
        self.abort_policy = AbortPolicy.parse(abort_on)
        self.reference = reference
        # -- model markup (streamblocks.markup builds on core: the face resolves it)
        self.markup = resolve_markup(markup)
        self._auto = self.markup is not None and self.markup.auto
        self._plan: SyntaxPlan = ()
        self._plan_version = -1
        self._scanning: ScanPlan | None = None

    def plan(self) -> SyntaxPlan:
        """The active syntaxes in priority order, each with the types it recognises."""
        if self._plan_version != self.registry.version:
            plan = [
                (syntax, TypeTable(markers, self._unknown_for(syntax)))
                for syntax, markers in self.registry.syntax_plan(self.syntax)
            ]
            for syntax, table in plan:
                settle_class_values(syntax).check(table)
            _check_inline(plan)
            shows_fences = any(getattr(s, "shows_code_fences", False) for s, _ in plan)
            inline_code_aware = any(isinstance(s, InlineSyntax) and s.code_aware for s, _ in plan)
            if (self.code_aware or inline_code_aware) and not shows_fences:
                plan.append((default_syntax("code_fences"), TypeTable({}, "text")))
            if self.markup is not None and not self._auto:  # asked for: before registered tags
                plan[:0] = self.markup.entries(None)
            self._plan, self._plan_version = tuple(plan), self.registry.version
            self._scanning = ScanPlan(self._plan)  # (shared by the sessions of this plan)
        return self._plan

    def _unknown_for(self, syntax: Syntax) -> str:
        unknown = self.unknown
        if isinstance(unknown, str):
            return unknown
        return unknown.get(syntax.name, unknown.get("*", "text"))

    def session(
        self,
        stream_id: str | None = None,
        *,
        model: str | None = None,
        request: Mapping[str, Any] | None = None,
    ) -> Session:
        """A fresh sans-IO session for one stream. ``model``: the model the stream
        comes from, for ``markup="auto"`` (the drivers read it from the first item);
        ``request``: the keyword arguments it was asked for with (its thinking switch
        and tools, for ``markup="auto"``)."""
        plan, stream_id = self.plan(), stream_id or uuid.uuid4().hex
        scanning = self._scanning
        if self.markup is not None and self._auto:
            plan, scanning = (*self.markup.entries(model, request), *plan), None
        if self.abort_policy is not None:
            return AbortingSession(
                plan,
                stream_id=stream_id,
                limits=self.limits,
                input_adapter=self.input_adapter,
                transforms=self.transforms,
                reference=self.reference,
                policy=self.abort_policy,
                scanning=scanning,
            )
        return Session(
            plan,
            stream_id=stream_id,
            limits=self.limits,
            input_adapter=self.input_adapter,
            transforms=self.transforms,
            reference=self.reference,
            scanning=scanning,
        )

    def restore(self, snapshot: bytes) -> Session:
        """The session saved by :meth:`Session.snapshot`, ready to be fed the rest of
        its stream. This processor must be configured like the one that made it (see
        :mod:`streamblocks.core.snapshot`); raises :class:`SnapshotError` otherwise."""
        config = (self.plan(), self.limits, self.input_adapter, self.transforms, self.abort_policy)
        session = load_session(config, snapshot)
        if not isinstance(session, Session):
            raise SnapshotError(f"the snapshot holds a {type(session).__name__}, not a session")
        return session

    def process(
        self,
        source: Iterable[Any],
        *,
        output_adapter: OutputAdapter | None = None,
        request: Mapping[str, Any] | None = None,
    ) -> Iterator[Any]:
        """Events of a synchronous stream of text chunks or provider events.

        ``output_adapter`` (default: the processor's) converts the events, e.g. to
        AG-UI; an output adapter with ``for_stream()`` gets a fresh instance per stream.
        The source is closed (its ``close()`` called) when the stream ends, when the
        consumer stops early (closing this generator) and when ``abort_on`` fires; an
        exception from the source comes out unchanged after the events already decided.
        ``request``: as for :meth:`session`.
        """
        return Events(self._events(source, output_adapter, request))

    def _events(
        self,
        source: Iterable[Any],
        output_adapter: OutputAdapter | None,
        request: Mapping[str, Any] | None,
    ) -> Generator[Any, None, None]:
        iterator = iter(source)
        first = list(itertools.islice(iterator, 1)) if self._auto else []
        session = self.session(model=self._model_of(first), request=request)
        out = self._output_for_stream(output_adapter)
        try:
            aborts = isinstance(session, AbortingSession)  # (only it may stop the stream)
            for item in itertools.chain(first, iterator):
                events = session.feed(item)
                if aborts and session.aborted is not None:
                    close_source(iterator)
                    yield from outgoing(out, events)
                    break
                yield from outgoing(out, events)
            yield from outgoing(out, session.close())
        finally:
            close_quietly(session)
            close_source(iterator)

    def process_stream(
        self,
        source: AsyncIterable[Any] | Iterable[Any],
        *,
        output_adapter: OutputAdapter | None = None,
        request: Mapping[str, Any] | None = None,
    ) -> AsyncIterator[Any]:
        """Events of an asynchronous stream (a plain iterable is accepted too).

        ``output_adapter`` and ``request`` as for :meth:`process`. The source is closed
        (``await aclose()``) when the stream ends, when the returned iterator is closed
        (``aclose()``, ``contextlib.aclosing``), when the task is cancelled or times out,
        and when ``abort_on`` fires.
        """
        return AsyncEvents(self, source, output_adapter, request)

    def _model_of(self, first: list[Any]) -> str | None:
        """The model the stream names (``markup="auto"``: its first item, if any)."""
        if not first or self.markup is None:
            return None
        return self.markup.model_of(first[0])

    def _output_for_stream(self, adapter: OutputAdapter | None) -> OutputAdapter | None:
        """The output adapter for one stream (``for_stream()`` when it keeps state)."""
        adapter = adapter if adapter is not None else self.output_adapter
        for_stream = getattr(adapter, "for_stream", None)
        return for_stream() if for_stream is not None else adapter


def _check_inline(plan: list[tuple[Syntax, TypeTable]]) -> None:
    """One configuration per inline syntax class: unequal instances of one class (two
    ``XMLTagSyntax`` settings) would compete for the same openers."""
    seen: dict[type, Syntax] = {}
    for syntax, _ in plan:
        if not isinstance(syntax, InlineSyntax):
            continue
        other = seen.setdefault(type(syntax), syntax)
        if other is not syntax and other != syntax:
            raise RegistryError(
                f"block types use different {type(syntax).__name__} configurations "
                f"({other!r}, {syntax!r}); register them with one instance"
            )
