"""Delta transforms: small stages that rewrite the event stream after block extraction.

A transform has ``process(event) -> list[Event]`` (the events that replace ``event``:
itself, others, or none) and ``flush() -> list[Event]`` (what it still holds when the
stream ends). ``StreamBlockProcessor(..., transforms=[a, b])`` runs them in order: every
event the session makes goes through ``a.process``, each of its outputs through
``b.process``. When the stream ends, ``a.flush()``'s output goes through ``b.process``
before ``b.flush()`` is called, and so on down the chain; ``STREAM_FINISHED`` is not
given to transforms and always ends the stream.

Per-stream state: one processor serves many streams, so a transform that keeps state
between events provides ``for_stream()``, returning a fresh instance that each session
uses for its stream (the convention input adapters follow too). A transform without it
is shared by every stream and must be stateless.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from .core.errors import HookWarning
from .core.events import Event


@runtime_checkable
class DeltaTransform(Protocol):
    """Rewrites events one at a time; ``flush`` releases what it held at the end."""

    def process(self, event: Event) -> list[Event]: ...

    def flush(self) -> list[Event]: ...


def for_stream(transform: DeltaTransform) -> DeltaTransform:
    """The instance to use for one stream: ``transform.for_stream()`` when it has one."""
    fresh = getattr(transform, "for_stream", None)
    return fresh() if fresh is not None else transform


class ComposedTransform:
    """Transforms applied in order (see the module docstring); itself a transform."""

    __slots__ = ("stages",)

    def __init__(self, stages: Iterable[DeltaTransform]) -> None:
        self.stages: tuple[DeltaTransform, ...] = tuple(stages)

    def for_stream(self) -> ComposedTransform:
        return ComposedTransform(for_stream(stage) for stage in self.stages)

    def process(self, event: Event) -> list[Event]:
        events = [event]
        for stage in self.stages:
            events = _through(stage, events)
        return events

    def process_all(self, events: list[Any]) -> list[Any]:
        """Each event through the whole chain before the next one, so what a stage
        sees does not depend on how events were batched."""
        out: list[Any] = []
        for event in events:
            out.extend(self.process(event))
        return out

    def flush(self) -> list[Event]:
        pending: list[Event] = []
        for stage in self.stages:
            pending = _through(stage, pending)
            pending.extend(_flush(stage))
        return pending

    def __repr__(self) -> str:
        return f"compose_transforms({', '.join(map(repr, self.stages))})"


def compose_transforms(*transforms: DeltaTransform) -> ComposedTransform:
    """One transform that applies ``transforms`` in order; nested compositions are
    flattened."""
    stages: list[DeltaTransform] = []
    for transform in transforms:
        if isinstance(transform, ComposedTransform):
            stages.extend(transform.stages)
        elif callable(getattr(transform, "process", None)) and callable(
            getattr(transform, "flush", None)
        ):
            stages.append(transform)
        else:
            raise TypeError(
                f"a delta transform needs process(event) and flush(), got {transform!r}"
            )
    return ComposedTransform(stages)


def _through(stage: DeltaTransform, events: list[Any]) -> list[Any]:
    out: list[Any] = []
    for event in events:
        try:
            out.extend(stage.process(event))
        except Exception as exc:
            warnings.warn(
                f"delta transform {stage!r} raised {exc!r} on {event.type.value}; "
                "the event was passed on unchanged",
                HookWarning,
                stacklevel=2,
            )
            out.append(event)
    return out


def _flush(stage: DeltaTransform) -> list[Any]:
    try:
        return list(stage.flush())
    except Exception as exc:
        warnings.warn(f"flush() of delta transform {stage!r} raised {exc!r}", HookWarning, 2)
        return []


__all__ = ["ComposedTransform", "DeltaTransform", "compose_transforms", "for_stream"]
