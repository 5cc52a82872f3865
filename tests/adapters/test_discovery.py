"""Entry-point discovery, pluggy registration and auto-detection."""

from __future__ import annotations

import sys
import textwrap
import warnings
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

import streamblocks.adapters as adapters
from streamblocks.adapters import (
    IdentityInputAdapter,
    available,
    detect_input_adapter,
    discovery,
    register_adapter,
)
from streamblocks.core.errors import AdapterWarning
from streamblocks.ext.anthropic import AnthropicInputAdapter
from streamblocks.ext.openai import OpenAIInputAdapter

GROUP = "streamblocks.adapters"

PLUGINS = {
    "tp_token": """
        from streamblocks.adapters import EventCategory

        class TokenAdapter:
            # The minimal adapter: no matches(), SKIP for what it does not know.
            def categorize(self, event):
                if isinstance(event, dict) and event.get("kind") == "token":
                    return EventCategory.TEXT_CONTENT
                return EventCategory.SKIP

            def extract_text(self, event):
                return event["value"]
    """,
    "tp_greedy": """
        class GreedyOpenAI:
            # Claims the same events as the built-in OpenAI adapter.
            def matches(self, event):
                return isinstance(event, dict) and event.get("object") == "chat.completion.chunk"
            def categorize(self, event):
                return "TEXT_CONTENT"
            def extract_text(self, event):
                return "greedy"
    """,
    "tp_broken": """
        raise RuntimeError("this plugin is broken")
    """,
    "tp_needs_extra": """
        import not_installed_sdk_xyz
    """,
    "tp_raising_matches": """
        class Raising:
            def matches(self, event):
                raise ValueError("matches blew up")
            def categorize(self, event):
                return "SKIP"
            def extract_text(self, event):
                return ""
    """,
    "tp_hooks": """
        from streamblocks.adapters import hookimpl
        from streamblocks.adapters.identity import IdentityInputAdapter

        class Marker(IdentityInputAdapter):
            pass

        @hookimpl
        def streamblocks_detect_input_adapter(event):
            return Marker() if event == {"hooked": True} else None
    """,
    "tp_not_an_adapter": """
        VALUE = 42
    """,
}


@pytest.fixture
def plugin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name, source in PLUGINS.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in PLUGINS:
        sys.modules.pop(name, None)


BUILTINS = [
    EntryPoint("openai", "streamblocks.ext.openai:OpenAIInputAdapter", GROUP),
    EntryPoint("anthropic", "streamblocks.ext.anthropic:AnthropicInputAdapter", GROUP),
]


def use(monkeypatch: pytest.MonkeyPatch, *eps: EntryPoint) -> discovery.PluginRegistry:
    registry = discovery.PluginRegistry(lambda: list(eps))
    monkeypatch.setattr(discovery, "_registry", registry)
    return registry


def ep(name: str, value: str) -> EntryPoint:
    return EntryPoint(name, value, GROUP)


CHAT_CHUNK = {"object": "chat.completion.chunk", "choices": []}
ANTHROPIC_START = {"type": "message_start", "message": {"usage": {"input_tokens": 1}}}


def test_installed_builtins_are_listed_and_loaded() -> None:
    found = {info.name: info for info in available()}
    assert {"openai", "anthropic", "gemini", "agui"} <= set(found)
    openai_info = found["openai"]
    assert openai_info.loaded
    assert openai_info.builtin
    assert openai_info.error is None
    assert openai_info.value == "streamblocks.ext.openai:OpenAIInputAdapter"
    assert openai_info.distribution == "streamblocks"
    assert openai_info.version


def test_str_is_identity_and_unknown_is_identity_with_one_warning() -> None:
    assert isinstance(detect_input_adapter("text"), IdentityInputAdapter)
    with pytest.warns(AdapterWarning, match="no input adapter recognised") as record:
        adapter = detect_input_adapter(object())
    assert isinstance(adapter, IdentityInputAdapter)
    assert len(record) == 1


def test_third_party_adapters_are_tried_before_builtins(
    plugin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, *BUILTINS, ep("greedy", "tp_greedy:GreedyOpenAI"))
    assert type(detect_input_adapter(CHAT_CHUNK)).__name__ == "GreedyOpenAI"
    assert isinstance(detect_input_adapter(ANTHROPIC_START), AnthropicInputAdapter)
    assert [info.name for info in available()] == ["greedy", "anthropic", "openai"]


def test_adapter_without_matches_claims_what_it_does_not_skip(
    plugin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, *BUILTINS, ep("token", "tp_token:TokenAdapter"))
    assert type(detect_input_adapter({"kind": "token", "value": "x"})).__name__ == "TokenAdapter"
    assert isinstance(detect_input_adapter(CHAT_CHUNK), OpenAIInputAdapter)


def test_broken_plugin_is_reported_once_and_the_rest_work(
    plugin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = use(
        monkeypatch,
        *BUILTINS,
        ep("broken", "tp_broken:Anything"),
        ep("needs-extra", "tp_needs_extra:Adapter"),
        ep("not-an-adapter", "tp_not_an_adapter:VALUE"),
    )
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        registry.load()
        registry.load()
        detected = detect_input_adapter(CHAT_CHUNK)
    assert isinstance(detected, OpenAIInputAdapter)
    assert all(issubclass(w.category, AdapterWarning) for w in record)
    messages = sorted(str(w.message) for w in record)
    assert len(messages) == 2  # the missing extra is quiet; each failure warned once
    assert "'broken' (tp_broken:Anything)" in messages[0]
    assert "this plugin is broken" in messages[0]
    assert "'not-an-adapter'" in messages[1]
    infos = {info.name: info for info in available()}
    assert infos["broken"].loaded is False
    assert infos["broken"].error == "RuntimeError: this plugin is broken"
    assert infos["needs-extra"].error == "missing dependency 'not_installed_sdk_xyz'"
    assert infos["openai"].loaded


def test_a_plugin_raising_in_matches_is_skipped_with_one_warning(
    plugin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, *BUILTINS, ep("raising", "tp_raising_matches:Raising"))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        first = detect_input_adapter(CHAT_CHUNK)
        second = detect_input_adapter(ANTHROPIC_START)
    assert isinstance(first, OpenAIInputAdapter)
    assert isinstance(second, AnthropicInputAdapter)
    assert [str(w.message) for w in record] == [
        "streamblocks plugin 'raising' raised during detection and was skipped: "
        "ValueError: matches blew up"
    ]


def test_a_pluggy_module_plugin_implements_the_hook(
    plugin_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use(monkeypatch, *BUILTINS, ep("hooks", "tp_hooks"))
    assert type(detect_input_adapter({"hooked": True})).__name__ == "Marker"
    assert available()[0].loaded


def test_loading_is_lazy_and_once(plugin_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def entry_points() -> list[EntryPoint]:
        calls.append(1)
        return list(BUILTINS)

    monkeypatch.setattr(discovery, "_registry", discovery.PluginRegistry(entry_points))
    assert calls == []
    detect_input_adapter(CHAT_CHUNK)
    detect_input_adapter(ANTHROPIC_START)
    available()
    assert calls == [1]


def test_register_adapter_goes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, *BUILTINS)

    class Mine(OpenAIInputAdapter):
        pass

    register_adapter(Mine)
    register_adapter(Mine)  # again: replaces, does not fail
    assert type(detect_input_adapter(CHAT_CHUNK)) is Mine
    with pytest.raises(TypeError):
        register_adapter(object())


def test_detection_does_not_import_sdks(monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, *BUILTINS)
    for name in list(sys.modules):
        if name == "openai" or name.startswith("openai."):
            monkeypatch.delitem(sys.modules, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert isinstance(detect_input_adapter(CHAT_CHUNK), OpenAIInputAdapter)
    assert "openai" not in sys.modules


def test_public_names() -> None:
    for name in ("available", "register_adapter", "PluginInfo", "hookimpl", "ENTRY_POINT_GROUP"):
        assert name in adapters.__all__
    assert adapters.ENTRY_POINT_GROUP == GROUP


def _hookspec_names() -> list[Any]:
    from streamblocks.adapters import hookspecs

    return [name for name in dir(hookspecs) if name.startswith("streamblocks_")]


def test_every_hookspec_is_documented() -> None:
    from streamblocks.adapters import hookspecs

    names = _hookspec_names()
    assert names == ["streamblocks_detect_input_adapter"]
    for name in names:
        assert getattr(hookspecs, name).__doc__
