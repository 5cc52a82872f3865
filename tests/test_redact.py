"""``streamblocks.runs.redact``: secrets masked in strings, values and event streams.

The corpus holds real-looking secrets (made up: none is a live key) in the places runs
have them. Streams are checked against the whole string over every way hypothesis
finds of splitting them into chunks.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamblocks import (
    Block,
    BlockDelta,
    BlockEnd,
    BlockStart,
    Counts,
    Passthrough,
    StopReason,
    StreamBlockProcessor,
    StreamFinished,
    StreamStarted,
    TextDelta,
)
from streamblocks.cli import default_registry
from streamblocks.runs.redact import TAIL, Redactor, redact_events

# (secret as written, the kind, what must remain of it)
CORPUS: list[tuple[str, str, str]] = [
    ("sk-proj-4f9Qx2LmN8vR1tZ6wY3bC7dE0hJ5kP9sA2uF", "API key", "[REDACTED API key]"),
    (
        "sk-ant-api03-Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7Aa6-_x5y4z3W2v1U0tSrQpOnMlKjIhGfEdCbA-AB12CD",
        "API key",
        "[REDACTED API key]",
    ),
    ("AIzaSyD4x9Lm2Nq7Rt1Vw5Yz8Bc3Fg6Hj0Kp4sT", "API key", "[REDACTED API key]"),
    ("ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R", "API key", "[REDACTED API key]"),
    (
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ",
        "API key",
        "[REDACTED API key]",
    ),
    ("xoxb-2145372640-7712635009876-QwErTyUiOpAsDfGh", "API key", "[REDACTED API key]"),
    ("AKIAIOSFODNN7EXAMPLE", "API key", "[REDACTED API key]"),
    ("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", "API key", "[REDACTED API key]"),
    (
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTYifQ.sflKxwRJSMeKKF2QT4fw",
        "token",
        "Authorization: Bearer [REDACTED token]",
    ),
    ("authorization: Basic dXNlcjpwYXNzd29yZA==", "token", "authorization: Basic [REDACTED token]"),
    ("curl -H 'bearer abcdef0123456789abcdef'", "token", "curl -H 'bearer [REDACTED token]'"),
    ("OPENAI_API_KEY=sk-live-0123456789abcdefghij", "secret", "OPENAI_API_KEY=[REDACTED secret]"),
    ("DB_PASSWORD=hunter2", "secret", "DB_PASSWORD=[REDACTED secret]"),
    (
        'export STRIPE_SECRET="rk_live_51H8abc"',
        "secret",
        'export STRIPE_SECRET="[REDACTED secret]"',
    ),
    ("GITHUB_TOKEN='tok-1234'", "secret", "GITHUB_TOKEN='[REDACTED secret]'"),
    ("PASSWORD=correct-horse-battery", "secret", "PASSWORD=[REDACTED secret]"),
    ("mail ana.lopez+runs@example.co.uk now", "e-mail", "mail [REDACTED e-mail] now"),
    ("opened /home/ana/src/app/main.py", "home directory", "opened ~/src/app/main.py"),
    ("at /Users/bob.smith/Library/x", "home directory", "at ~/Library/x"),
    ("C:\\Users\\carol\\proj\\a.txt", "home directory", "~\\proj\\a.txt"),
    ("in /srv/me/work/x and /srv/me", "home directory", "in ~/work/x and ~"),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
        "AAAAMwAAAAtzc2gtZWQyNTUxOQAAACBk3k9+Zr/x2==\n-----END OPENSSH PRIVATE KEY-----",
        "private key",
        "[REDACTED private key]",
    ),
    (
        "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\\n"
        "4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0\\n-----END RSA PRIVATE KEY-----",
        "private key",
        "[REDACTED private key]",
    ),
]
# what must stay as it is
INNOCENT = [
    "task-abcdefghijklmnopqrstuvwxyz0123",  # `sk-` inside a word
    'API_KEY = os.environ["API_KEY"]',  # code naming a secret, not holding one
    "TOKEN=$GITHUB_TOKEN",  # a reference to one
    "git@github.com:owner/repo.git",
    "/mnt/home/share/x and /homework/y",
    "max_tokens=1024 and the Bearer of news",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
]


def _redactor() -> Redactor:
    return Redactor(home="/srv/me")


@pytest.mark.parametrize(("secret", "kind", "shown"), CORPUS, ids=[c[1] for c in CORPUS])
def test_each_shape_is_masked_and_counted(secret: str, kind: str, shown: str) -> None:
    redactor = _redactor()
    assert redactor.text(secret) == shown
    assert redactor.counts[kind] >= 1
    assert sum(redactor.counts.values()) == redactor.counts[kind]


@pytest.mark.parametrize("text", INNOCENT)
def test_what_only_looks_like_a_secret_stays(text: str) -> None:
    redactor = _redactor()
    assert redactor.text(text) == text
    assert sum(redactor.counts.values()) == 0


def test_counts_are_of_distinct_values() -> None:
    redactor = _redactor()
    redactor.text("a@example.com b@example.com a@example.com /home/x/1 /home/x/2")
    assert redactor.counts["e-mail"] == 2 and redactor.counts["home directory"] == 1


def test_values_are_walked_and_secret_named_fields_masked_whole() -> None:
    redactor = _redactor()
    value = {
        "command": "cat /home/ana/.env",
        "headers": {"Authorization": "Token abc12345", "X-Api-Key": "plainword"},
        "password": "hunter2",
        "tokens": [1, 2],
        "token": "Hello",  # a model's token, not a secret
    }
    assert redactor.value(value) == {
        "command": "cat ~/.env",
        "headers": {"Authorization": "[REDACTED secret]", "X-Api-Key": "[REDACTED secret]"},
        "password": "[REDACTED secret]",
        "tokens": [1, 2],
        "token": "Hello",
    }


def _document() -> str:
    """Every secret of the corpus in prose, padded so that streams hold back and
    release several times."""
    filler = "Plain words of a reply, nothing secret in them at all. " * 3
    parts = [f"{filler}{secret}\n{filler}" for secret, _, _ in CORPUS]
    return "".join(parts) + "".join(f"{text}\n" for text in INNOCENT)


def _streamed(text: str, cuts: list[int]) -> str:
    stream = _redactor().stream()
    out, last = [], 0
    for cut in [*sorted(set(cuts)), len(text)]:
        out.append(stream.feed(text[last:cut]))
        last = cut
    out.append(stream.close())
    return "".join(out)


DOCUMENT = _document()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, len(DOCUMENT)), max_size=200))
def test_a_stream_split_anywhere_masks_as_the_whole_text(cuts: list[int]) -> None:
    whole = _redactor().text(DOCUMENT)
    assert _streamed(DOCUMENT, cuts) == whole
    for secret, _, _ in CORPUS:  # (the whole text does mask them all)
        assert secret not in whole


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12))
def test_a_stream_of_tiny_chunks_masks_as_the_whole_text(size: int) -> None:
    cuts = list(range(0, len(DOCUMENT), size))
    assert _streamed(DOCUMENT, cuts) == _redactor().text(DOCUMENT)


def test_a_stream_holds_back_a_bounded_tail() -> None:
    stream = _redactor().stream()
    released = sum(len(stream.feed("word " * 40)) for _ in range(100))
    assert released >= 100 * 200 - 2 * TAIL
    assert len(stream.pending) < 2 * TAIL


def _run(text: str, chunk: int) -> list[Any]:
    processor = StreamBlockProcessor(default_registry(), unknown="block")
    pieces = [text[i : i + chunk] for i in range(0, len(text), chunk)]
    return list(processor.process(pieces))


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_events_are_masked_in_text_blocks_and_raw_text(chunk: int) -> None:
    key = CORPUS[1][0]
    text = f"my key {key} here\n!!n1:note\nmail ana@example.com\n!!end\nafter {key}\n"
    redactor = _redactor()
    events = list(redact_events(_run(text, chunk), redactor))
    visible = "".join(e.text for e in events if type(e) is TextDelta)
    assert visible == "my key [REDACTED API key] here\nafter [REDACTED API key]\n"
    deltas = "".join(e.text for e in events if type(e) is BlockDelta)
    (end,) = [e for e in events if type(e) is BlockEnd]
    assert deltas == end.block.content == "mail [REDACTED e-mail]\n"
    assert "ana@example.com" not in end.block.raw and key not in repr(events)
    assert redactor.counts["API key"] == 1 and redactor.counts["e-mail"] == 1


def test_tool_calls_raw_events_and_errors_are_masked() -> None:
    secret = "sk-proj-4f9Qx2LmN8vR1tZ6wY3bC7dE0hJ5kP9sA2uF"
    arguments = '{"command": "curl -H \\"Authorization: Bearer ' + secret + '\\""}'
    block = Block("c1", "tool_call", "native", None, {"command": secret}, {"name": "Bash"})
    events = [
        StreamStarted("s"),
        BlockStart("c1", "tool_call", "native", {"name": "Bash"}),
        *[
            BlockDelta("c1", "tool_call", "content", arguments[i : i + 5])
            for i in range(0, len(arguments), 5)
        ],
        BlockEnd(block),
        Passthrough({"type": "system", "cwd": "/home/ana/proj", "api_key": "abc"}),
        StreamFinished(StopReason.error, None, Counts(0, 0, 0), error=f"bad key {secret}"),
    ]
    out = list(redact_events(events, _redactor()))
    text = "".join(e.text for e in out if type(e) is BlockDelta)
    assert text == '{"command": "curl -H \\"Authorization: Bearer [REDACTED token]\\""}'
    assert all(e.partial_at is None for e in out if type(e) is BlockDelta)
    assert next(e for e in out if type(e) is BlockEnd).block.content == {
        "command": "[REDACTED API key]"
    }
    assert [e.event for e in out if type(e) is Passthrough] == [
        {"type": "system", "cwd": "~/proj", "api_key": "[REDACTED secret]"}
    ]
    assert out[-1].error == "bad key [REDACTED API key]"
