"""``streamblocks run``: call a provider with the registry's system prompt, extract live."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Iterator
from typing import Any

from ...core.processor import StreamBlockProcessor
from ...runs.registries import registry_for
from ..errors import CLIError
from ..options import add_output_options, add_registry_options, integer
from ..output import exit_code, render_events, renderer_for

API_KEYS = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
}
SDK_MODULES = {"openai": "openai", "anthropic": "anthropic", "gemini": "google.genai"}


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "run", help="call a provider with the registry's system prompt and extract blocks live"
    )
    parser.add_argument("--provider", required=True, choices=tuple(API_KEYS))
    parser.add_argument("--model", required=True, help="the provider's model name")
    parser.add_argument(
        "--max-tokens",
        type=integer(1, 10_000_000),
        default=4096,
        metavar="N",
        help="output token limit",
    )
    parser.add_argument("prompt", help="the user message")
    add_registry_options(parser)
    add_output_options(parser)
    parser.set_defaults(handler=run)
    return parser


def _api_key(provider: str) -> str:
    for name in API_KEYS[provider]:
        value = os.environ.get(name)
        if value:
            return value
    raise CLIError(
        f"set {API_KEYS[provider][0]} to call {provider} (no API key in the environment)"
    )


def provider_stream(
    provider: str, model: str, prompt: str, system: str, max_tokens: int
) -> Iterator[Any]:
    """Open a real streaming call; the API key must be set."""
    key = _api_key(provider)
    if importlib.util.find_spec(SDK_MODULES[provider].split(".")[0]) is None:
        raise CLIError(
            f"the {provider} SDK is not installed: pip install '.[{provider}]' "
            "in the streamblocks checkout"
        )
    if provider == "openai":
        from openai import OpenAI

        return iter(
            OpenAI(api_key=key).chat.completions.create(
                model=model,
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": prompt},
                ],
                stream=True,
                stream_options={"include_usage": True},
                max_completion_tokens=max_tokens,
            )
        )
    if provider == "anthropic":
        from anthropic import Anthropic

        return iter(
            Anthropic(api_key=key).messages.create(
                model=model,
                max_tokens=max_tokens,
                system=system,
                messages=[{"role": "user", "content": prompt}],
                stream=True,
            )
        )
    from google import genai

    client: Any = genai.Client(api_key=key)
    return iter(
        client.models.generate_content_stream(
            model=model,
            contents=prompt,
            config={"system_instruction": system, "max_output_tokens": max_tokens},
        )
    )


def run(args: argparse.Namespace) -> int:
    registry, unknown = registry_for(args.registry, args.unknown)
    renderer = renderer_for(args, sys.stdout)
    stream = provider_stream(
        args.provider, args.model, args.prompt, registry.system_prompt(), args.max_tokens
    )
    processor = StreamBlockProcessor(registry, unknown=unknown)
    render_events(processor.process(stream), renderer)
    return exit_code(renderer, args.strict)


__all__ = ["add_parser", "provider_stream", "run"]
