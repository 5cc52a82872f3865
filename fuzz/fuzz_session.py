"""atheris entry point: ``python fuzz/fuzz_session.py fuzz/corpus -dict=fuzz/streamblocks.dict``.

See ``fuzz/README.md``. Any uncaught exception (an invariant's ``AssertionError``
included) makes libFuzzer write the input to ``crash-<sha1>`` and stop.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).parent))

with atheris.instrument_imports(include=["streamblocks", "harness"]):
    import harness


def main() -> None:
    atheris.Setup(sys.argv, harness.one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
