"""The grammars of the model families (one module per family)."""

from __future__ import annotations

from ..grammar import Grammar
from .deepseek import DEEPSEEK
from .gemma import GEMMA4
from .glm import GLM
from .harmony import HARMONY
from .kimi import KIMI
from .llama import LLAMA
from .mistral import MISTRAL
from .qwen import QWEN3

GRAMMARS: dict[str, Grammar] = {
    "qwen3": QWEN3,
    "deepseek": DEEPSEEK,
    "kimi": KIMI,
    "glm": GLM,
    "llama": LLAMA,
    "mistral": MISTRAL,
    "gemma4": GEMMA4,
    "gpt-oss": HARMONY,
}
"""Family name → its grammar."""
