"""Without an extra's packages, the library names the extra to install (issue 39,
item 6): importing the Dask or Ray module, a Redis store from a URL; and a store given a
URL string takes it; an adapter given by name says which class to import."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from streamblocks import BlockRegistry, StreamBlockProcessor

SRC = str(Path(__file__).parents[1] / "src")
SCRIPT = textwrap.dedent(
    """
    import json, sys

    BLOCKED = tuple(sys.argv[1].split(","))

    class Block:
        def find_spec(self, name, path=None, target=None):
            if any(name == b or name.startswith(b + ".") for b in BLOCKED):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Block())
    try:
        exec(sys.argv[2])
    except ImportError as exc:
        print(json.dumps([type(exc).__name__, str(exc)]))
    """
)


def blocked(modules: str, code: str) -> list[str]:
    """What ``code`` raised with ``modules`` (comma-separated) not importable."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, modules, code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": SRC},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found: list[str] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize(
    ("modules", "code", "extra", "missing"),
    [
        ("dask,distributed", "import streamblocks.batch.dask", "dask", "dask"),
        ("ray,pyarrow", "import streamblocks.batch.ray", "ray", "ray"),
        ("pyarrow", "import streamblocks.batch.ray", "ray", "pyarrow"),
        (
            "redis",
            "from streamblocks.ext.redis import RedisSnapshotStore as S; "
            "S.from_url('redis://localhost:1/0')",
            "redis",
            "redis",
        ),
        (
            "redis",
            "from streamblocks.ext.redis import RedisSnapshotStore as S; S('redis://x:1/0')",
            "redis",
            "redis",
        ),
    ],
)
def test_a_missing_extra_is_named(modules: str, code: str, extra: str, missing: str) -> None:
    kind, message = blocked(modules, code)
    assert kind == "ImportError"
    assert f"needs the '{extra}' extra ({missing} is not installed)" in message
    assert f"pip install '.[{extra}]'" in message


def test_a_redis_store_takes_a_url_or_says_what_it_takes() -> None:
    pytest.importorskip("redis")
    from streamblocks.ext.redis import RedisSnapshotStore

    store = RedisSnapshotStore("redis://localhost:6399/3", ttl=5)  # no connection yet
    assert store.client.connection_pool.connection_kwargs["db"] == 3
    with pytest.raises(TypeError, match=r"a redis\.Redis client or a redis:// URL, got dict"):
        RedisSnapshotStore({"host": "localhost"})


def test_an_adapter_given_by_name_says_which_class_to_import() -> None:
    with pytest.raises(ValueError, match="input_adapter must be") as raised:
        StreamBlockProcessor(BlockRegistry(), input_adapter="openai")
    assert (
        "from streamblocks.ext.openai import OpenAIInputAdapter, "
        "then input_adapter=OpenAIInputAdapter()" in str(raised.value)
    )
    with pytest.raises(ValueError, match="input_adapter must be") as raised:
        StreamBlockProcessor(BlockRegistry(), input_adapter="nonesuch")
    assert "pass an instance" not in str(raised.value)
