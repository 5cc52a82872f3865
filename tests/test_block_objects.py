"""The objects the session builds per block without their constructors' checks are
the same objects the constructors build."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from streamblocks import Block
from streamblocks.core.blocks import new_block


def test_new_block_is_the_block_its_constructor_builds() -> None:
    fields = ("b1", "note", "delimiter_preamble", {"id": "b1"}, "body\n", {"k": 1}, "raw", 3, 6)
    built, made = new_block(*fields), Block(*fields)
    assert type(built) is Block
    assert built == made and repr(built) == repr(made)
    assert dataclasses.astuple(built) == dataclasses.astuple(made)
    assert pickle.loads(pickle.dumps(built)) == made
    assert copy.copy(built) == made
    assert dataclasses.replace(built, raw="other").raw == "other"
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.id = "b2"  # type: ignore[misc]
