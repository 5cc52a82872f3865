"""The compiled build: ``STREAMBLOCKS_COMPILE=1 pip install .`` compiles the hot modules
with mypyc into the wheel, next to the same ``.py`` files (Python imports the compiled
module when both are there). Without the variable the wheel is pure Python.

The hot modules are what runs per chunk: the core, the syntaxes and the model-markup
reader. Everything else (adapters, the command, the content models, the agent loop)
spends its time in I/O, pydantic or the SDKs and stays interpreted.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGE = Path("src/streamblocks")
HOT = ("core/*.py", "syntaxes/*.py")
MARKUP_READER = (
    *("reader", "around", "calls", "head", "attribution", "body", "grammar", "scan", "schema"),
    *("arguments", "tagged", "items", "syntax"),
)
# What mypy must see to type-check the compiled modules as strictly as in development.
BUILD_REQUIRES = [
    "mypy>=1.11",
    "setuptools>=68",
    "mypy_extensions>=1.0",
    "pydantic>=2.6",
    "pluggy>=1.3",
    "PyYAML>=6.0",
    "types-PyYAML",
    "typing-extensions>=4.6",
]


def wanted() -> bool:
    """Whether this build compiles (``STREAMBLOCKS_COMPILE`` set to anything but 0)."""
    return os.environ.get("STREAMBLOCKS_COMPILE", "").strip().lower() not in ("", "0", "false")


def hot_modules(root: Path) -> list[str]:
    """The files mypyc compiles, relative to ``root``."""
    found = [path for pattern in HOT for path in sorted((root / PACKAGE).glob(pattern))]
    found += [root / PACKAGE / "markup" / f"{name}.py" for name in MARKUP_READER]
    return [str(path.relative_to(root)) for path in found]


def compile_modules(root: Path, out: Path) -> list[Path]:
    """Compile the hot modules of the checkout at ``root``; the extension files are
    written under ``out`` (``streamblocks/core/session.*.so``…) and returned."""
    from mypyc.build import mypycify
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    work = Path(tempfile.mkdtemp(prefix="streamblocks-mypyc-"))
    here = Path.cwd()
    try:
        os.chdir(root)  # mypy reads its settings from pyproject.toml here
        options = ["--cache-dir", str(work / "mypy_cache")]
        extensions = mypycify(
            [*options, *hot_modules(root)],
            opt_level="3",
            group_name="streamblocks",
            target_dir=str(work / "c"),
        )
        command = build_ext(Distribution({"name": "streamblocks", "ext_modules": extensions}))
        command.build_lib = str(out)
        command.build_temp = str(work / "objects")
        command.parallel = os.cpu_count() or 1
        command.ensure_finalized()
        command.run()
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)
    return sorted(path for path in out.rglob("*") if path.suffix in (".so", ".pyd"))


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    """Adds mypyc's extension modules to the wheel when ``STREAMBLOCKS_COMPILE`` is set."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return list(BUILD_REQUIRES) if wanted() and self.target_name == "wheel" else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not wanted() or self.target_name != "wheel" or version == "editable":
            return
        out = Path(self.directory) / "mypyc"
        shutil.rmtree(out, ignore_errors=True)
        built = compile_modules(Path(self.root), out)
        if not built:
            sys.exit("STREAMBLOCKS_COMPILE: mypyc built no extension module")
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path in built:
            build_data["force_include"][str(path)] = str(path.relative_to(out))
        self.app.display_info(f"compiled {len(built)} extension modules with mypyc")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        shutil.rmtree(Path(self.directory) / "mypyc", ignore_errors=True)
