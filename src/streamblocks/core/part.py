"""The base of the session's parts (:mod:`.inline`, :mod:`.provider`): what a part may
use of the session it belongs to, declared for the type checker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import ErrorCode


class SessionPart:
    """A part of :class:`~streamblocks.core.session.Session`; the session defines these."""

    if TYPE_CHECKING:
        _pos: int

        def _error(
            self,
            block_id: str | None,
            type_name: str | None,
            code: ErrorCode,
            message: str,
            raw: str,
        ) -> None: ...
