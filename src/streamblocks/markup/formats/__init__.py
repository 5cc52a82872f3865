"""The grammars of the model families (one module per family)."""

from __future__ import annotations

from ..grammar import Grammar
from .command import COMMAND
from .deepseek import DEEPSEEK
from .gemma import GEMMA4
from .glm import GLM
from .harmony import HARMONY
from .hunyuan import HUNYUAN
from .kimi import KIMI
from .lfm2 import LFM2
from .llama import LLAMA
from .minimax import MINIMAX
from .minimax_m3 import MINIMAX_M3
from .mistral import MISTRAL
from .nemotron import NEMOTRON
from .phi4 import PHI4
from .qwen import QWEN3
from .seed import SEED

GRAMMARS: dict[str, Grammar] = {
    "qwen3": QWEN3,
    "deepseek": DEEPSEEK,
    "kimi": KIMI,
    "glm": GLM,
    "llama": LLAMA,
    "mistral": MISTRAL,
    "gemma4": GEMMA4,
    "gpt-oss": HARMONY,
    "minimax": MINIMAX,
    "minimax-m3": MINIMAX_M3,
    "seed": SEED,
    "hunyuan": HUNYUAN,
    "command": COMMAND,
    "nemotron": NEMOTRON,
    "phi4": PHI4,
    "lfm2": LFM2,
}
"""Family name → its grammar."""
