"""What to say when an optional dependency is missing: the extra that installs it."""

from __future__ import annotations


def missing_extra(what: str, extra: str, exc: ImportError) -> ImportError:
    """An :class:`ImportError` for ``what`` (a module or a call) naming the ``extra`` to
    install and the module that was not found (``exc``, raised from it)."""
    missing = exc.name or str(exc)
    return ImportError(
        f"{what} needs the {extra!r} extra ({missing} is not installed): "
        f"pip install '.[{extra}]' in the streamblocks checkout",
        name=exc.name,
    )
