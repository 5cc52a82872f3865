"""Early abort: a policy that ends a stream as soon as it goes wrong.

``StreamBlockProcessor(..., abort_on=...)`` takes error codes (a ``BLOCK_ERROR`` with one
of them aborts), predicates on events (one answering truthy aborts; a ``str`` answer is
the cause), or a mix of both. When an event matches, the session keeps the events up to
and including it and drops the rest of that call's events; :attr:`Session.aborted`
holds the cause; further ``feed`` calls return nothing; ``close()`` emits only
``STREAM_FINISHED`` with ``stop_reason=error`` and ``error=<cause>``. The drivers
(``process``/``process_stream``) stop reading and close the source at once, so the
provider request is cancelled and no more tokens are paid for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from .errors import ErrorCode
from .events import BlockError, Event, StopReason, StreamFinished
from .scan_plan import ScanPlan
from .session import Session

if TYPE_CHECKING:
    from ..adapters.protocols import InputAdapter
    from ..transforms import DeltaTransform
    from .limits import Limits
    from .syntax import SyntaxPlan

AbortPredicate = Callable[[Any], Any]
"""Called with each outgoing event; truthy aborts the stream (a ``str`` is the cause)."""
AbortRule = ErrorCode | str | AbortPredicate
AbortSpec = AbortRule | Iterable[AbortRule] | None


class AbortPolicy:
    """The normalised ``abort_on=`` of a processor."""

    __slots__ = ("codes", "predicates")

    def __init__(self, codes: frozenset[ErrorCode], predicates: tuple[AbortPredicate, ...]) -> None:
        self.codes = codes
        self.predicates = predicates

    @classmethod
    def parse(cls, spec: AbortSpec) -> AbortPolicy | None:
        if spec is None:
            return None
        rules: Iterable[Any] = (
            [spec] if isinstance(spec, (str, ErrorCode)) or callable(spec) else spec
        )
        codes: set[ErrorCode] = set()
        predicates: list[AbortPredicate] = []
        for rule in rules:
            if isinstance(rule, str):
                try:
                    codes.add(ErrorCode(rule))
                except ValueError:
                    known = ", ".join(code.value for code in ErrorCode)
                    raise ValueError(
                        f"abort_on: {rule!r} is not an error code (one of {known})"
                    ) from None
            elif callable(rule):
                predicates.append(rule)
            else:
                raise TypeError(
                    f"abort_on takes error codes and predicates on events, got {rule!r}"
                )
        if not codes and not predicates:
            return None
        return cls(frozenset(codes), tuple(predicates))

    def cause(self, event: Any) -> str | None:
        """Why ``event`` aborts the stream, or ``None`` when it does not."""
        if self.codes and isinstance(event, BlockError) and event.code in self.codes:
            where = f" in {event.block_type or 'block'} {event.block_id!r}"
            return f"{event.code.value}{where if event.block_id else ''}: {event.message}"
        for predicate in self.predicates:
            verdict = predicate(event)
            if verdict:
                if isinstance(verdict, str):
                    return verdict
                name = getattr(predicate, "__name__", repr(predicate))
                return f"abort_on predicate {name} matched {event.type.value}"
        return None

    def __repr__(self) -> str:
        codes = sorted(code.value for code in self.codes)
        return f"AbortPolicy(codes={codes}, predicates={self.predicates!r})"


@mypyc_attr(allow_interpreted_subclasses=True)
class AbortingSession(Session):
    """A session that applies an :class:`AbortPolicy` to its outgoing events."""

    __slots__ = ("_policy",)

    def __init__(
        self,
        plan: SyntaxPlan,
        *,
        stream_id: str,
        limits: Limits,
        input_adapter: InputAdapter | str | None,
        transforms: Sequence[DeltaTransform] = (),
        reference: bool = False,
        policy: AbortPolicy,
        scanning: ScanPlan | None = None,
    ) -> None:
        super().__init__(
            plan,
            stream_id=stream_id,
            limits=limits,
            input_adapter=input_adapter,
            transforms=transforms,
            reference=reference,
            scanning=scanning,
        )
        self._policy = policy

    def feed(self, chunk: Any) -> list[Event]:
        if self._aborted is not None and not self._closed:
            return []
        return self._check(super().feed(chunk))

    def close(self) -> list[Event]:
        if self._aborted is not None and not self._closed:
            return self._finish_early(self._aborted)
        events = super().close()
        if events and isinstance(events[-1], StreamFinished) and events[-1].error is None:
            kept = self._check(events[:-1])
            if self._aborted is not None:
                finish = events[-1]._replace(stop_reason=StopReason.error, error=self._aborted)
                return [*kept, finish]
        return events

    def __getstate__(self) -> tuple[Any, ...]:
        return (*super().__getstate__(), self._policy)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        super().__setstate__(state[:-1])
        self._policy = state[-1]

    def _check(self, events: list[Event]) -> list[Event]:
        cause = self._policy.cause
        for index, event in enumerate(events):
            found = _safe_cause(cause, event)
            if found is not None:
                self._aborted = found
                del events[index + 1 :]
                break
        return events


def _safe_cause(cause: Callable[[Any], str | None], event: Any) -> str | None:
    try:
        return cause(event)
    except Exception as exc:  # a raising predicate aborts: it cannot vouch for the event
        return f"abort_on predicate raised {exc!r} on {event.type.value}"
