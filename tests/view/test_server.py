"""The viewer's server: the AG-UI events each input becomes, reconnecting, the export,
live input from a pipe, and the command's errors."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adapters.rollout_lines import codex_rollout_run
from adapters.transcripts import OUTRO, claude_partial_run, claude_tool_run, codex_run, jsonl
from streamblocks import StreamBlockProcessor
from streamblocks.cli import default_registry
from streamblocks.content import Message, MessageAccumulator
from streamblocks.ext.agui import agui_events

from . import fixtures
from .served import events_of, get, sse_messages

VIEW_WARNING = "streamblocks.view.warning"


def _names_of(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [event for event in events if event.get("name") == name]


def _delta_of(event: dict[str, Any]) -> tuple[Any, ...] | None:
    """What a delta event continues (its message, call or block part), else ``None``."""
    kind = event["type"]
    if kind in ("TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT"):
        return (kind, event["messageId"])
    if kind == "TOOL_CALL_ARGS":
        return (kind, event["toolCallId"])
    if event.get("name") == "streamblocks.block_delta":
        value = event["value"]
        return (kind, value["block_id"], value["section"], value["path"])
    return None


def _merged(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` with consecutive deltas of the same thing merged (as the viewer sends
    a file read at once)."""
    out: list[dict[str, Any]] = []
    for event in events:
        key = _delta_of(event)
        if key is not None and out and _delta_of(out[-1]) == key:
            last = out[-1]
            if "value" in last:
                last["value"] = {
                    **last["value"],
                    "text": last["value"]["text"] + event["value"]["text"],
                }
            else:
                last["delta"] += event["delta"]
            continue
        out.append(dict(event))
    return out


def _whole(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` with each card that starts and ends with nothing else between (a
    ``block_start``, its metadata and deltas, its ``block_end``) as its ``block_end``
    alone, as the viewer sends a file read at once; a native code or text block only
    when the content is the text its row would show."""
    out: list[dict[str, Any]] = []
    for event in events:
        name = event.get("name")
        if name == "streamblocks.block_end":
            value = event["value"]
            held = []
            for index in range(len(out) - 1, -1, -1):
                before = out[index].get("name", "")
                if before.startswith("streamblocks.block_") and (
                    out[index]["value"].get("block_id") == value["id"]
                ):
                    held.insert(0, out[index])
                    if before == "streamblocks.block_start":
                        break
                else:
                    held = []
                    break
            text = "".join(e["value"]["text"] for e in held[1:] if "text" in e["value"])
            shown = (
                value["syntax"] != "native"
                or value["type"] not in ("code", "text")
                or (
                    isinstance(value["content"], str)
                    and (value["type"] == "code" or value["content"] == text or not text)
                )
            )
            if held and shown:
                del out[-len(held) :]
        out.append(event)
    return out


def _lean(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` with each ``block_end`` as the viewer sends it: without the block's raw
    text and offsets, and without metadata that only repeats the block's id and type."""
    out = []
    for event in events:
        if event["type"] == "REASONING_ENCRYPTED_VALUE":
            continue  # a signature: nothing a page can show
        if event.get("name") == "streamblocks.block_end":
            value = dict(event["value"])
            for key in ("raw", "start", "end"):
                del value[key]
            metadata = value["metadata"]
            if metadata is None or (
                isinstance(metadata, dict)
                and set(metadata) <= {"id", "block_type", "params"}
                and not metadata.get("params")
            ):
                del value["metadata"]
            event = {**event, "value": value}
        out.append(event)
    return out


_OPENED = {
    "TEXT_MESSAGE_CHUNK": ["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"],
    "REASONING_MESSAGE_CHUNK": [
        "REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END", "REASONING_END",
    ],
    "TOOL_CALL_CHUNK": ["TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END"],
}  # fmt: skip


def _unchunked(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` with each ``*_CHUNK`` event (a whole message) as the events of its
    message, as an AG-UI client's chunk transform gives them."""
    out = []
    for event in events:
        kinds = _OPENED.get(event["type"])
        if kinds is None:
            out.append(event)
            continue
        first = {key: value for key, value in event.items() if key not in ("type", "delta")}
        key = "toolCallId" if "toolCallId" in event else "messageId"
        for kind in kinds:
            if kind.endswith(("_CONTENT", "_ARGS")):
                if event.get("delta"):
                    out.append({"type": kind, key: event[key], "delta": event["delta"]})
            else:
                out.append({"type": kind, **(first if kind == kinds[0] else {key: event[key]})})
    return out


def _unmerged(items: list[Any]) -> list[dict[str, Any]]:
    """What the project's AG-UI output makes of ``items``, as JSON."""
    processor = StreamBlockProcessor(default_registry(), unknown="block")
    return [
        event.model_dump(mode="json", by_alias=True, exclude_none=True)
        for event in agui_events(processor.process(items))
    ]


def _expected(items: list[Any]) -> list[dict[str, Any]]:
    """What the viewer sends of a file, its chunks opened: the AG-UI output,
    consecutive deltas merged, whole cards as their lean end."""
    return _lean(_whole(_merged(_unmerged(items))))


def _shape(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Events without their per-run ids (each run gets a fresh stream id)."""
    return [
        (
            event["type"],
            event.get("name"),
            event.get("delta"),
            event.get("toolCallName"),
            event.get("content"),
            json.dumps(event.get("value"), sort_keys=True),
        )
        for event in events
        if not str(event.get("name", "")).startswith("streamblocks.view.")
    ]


def _types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def _rollout_without_token_counts() -> list[dict[str, Any]]:
    return [line for line in codex_rollout_run() if line["payload"].get("type") != "token_count"]


@pytest.mark.parametrize("lines", [claude_tool_run, codex_run, _rollout_without_token_counts])
def test_a_transcript_arrives_as_the_agui_output_makes_it(
    serve: Any, tmp_path: Path, lines: Any
) -> None:
    # (without usage: a turn's usage ends its text on the page, which the project's AG-UI
    # output, which has no turns, does not; test_a_turns_usage_ends_its_text)
    plain = _without_usage(lines())
    events = _unchunked(events_of(serve(fixtures.write(tmp_path, "run.jsonl", jsonl(plain)))))
    assert _shape(events) == _shape(_expected(plain))
    assert events[0]["type"] == "RUN_STARTED"
    assert events[-1]["type"] == "RUN_FINISHED"
    assert events[-1]["result"]["stop_reason"] == "end_turn"


def test_a_claude_run_names_its_tools_and_flags_the_failed_result(
    serve: Any, tmp_path: Path
) -> None:
    events = _unchunked(events_of(serve(fixtures.claude_file(tmp_path))))
    names = [e["toolCallName"] for e in events if e["type"] == "TOOL_CALL_START"]
    assert names == ["Read", "Bash", "Edit", "Write", "TodoWrite"]
    errors = [e["value"] for e in events if e.get("name") == "streamblocks.view.tool_error"]
    assert errors == [{"tool_call_id": "toolu_bash"}]
    after = _types(events)[_types(events).index("TOOL_CALL_RESULT", 0) :]
    assert "REASONING_MESSAGE_CONTENT" in _types(events)
    assert after  # the results follow the calls
    text = "".join(e["delta"] for e in events if e["type"] == "TEXT_MESSAGE_CONTENT")
    assert text == "Let me look at the code.\n" + OUTRO
    assert events[-1]["result"]["usage"]["cost_usd"] == 0.0421


def test_the_demo_recording_streams_thinking_text_and_blocks(serve: Any, tmp_path: Path) -> None:
    events = _unchunked(events_of(serve(fixtures.demo_file(tmp_path))))
    types = _types(events)
    assert types.index("REASONING_MESSAGE_CONTENT") < types.index("TEXT_MESSAGE_CONTENT")
    ended = [e["value"]["type"] for e in events if e.get("name") == "streamblocks.block_end"]
    assert {"note", "patch", "todo"} <= set(ended)


def test_text_with_custom_blocks_reports_the_invalid_one(serve: Any, tmp_path: Path) -> None:
    path = fixtures.write(tmp_path, "reply.md", fixtures.CUSTOM_TEXT)
    events = _unchunked(events_of(serve(path)))
    ends = [e["value"] for e in events if e.get("name") == "streamblocks.block_end"]
    ended = {value["id"]: value for value in ends}
    assert ended["n1"]["content"] == "Keep the *old* API for a release.\n"
    assert ended["t1"]["metadata"]["owner"] == "ana"
    errors = [e["value"] for e in events if e.get("name") == "streamblocks.block_error"]
    assert [(e["block_id"], e["code"]) for e in errors] == [("n2", "UNCLOSED")]
    assert _shape(events) == _shape(_expected([fixtures.CUSTOM_TEXT]))


def test_every_message_has_an_id_and_a_reconnect_resumes_after_it(
    serve: Any, tmp_path: Path
) -> None:
    served = serve(fixtures.codex_file(tmp_path))
    _, headers, body = get(served.url + "events")
    messages = sse_messages(body)
    assert [number for number, _ in messages] == list(range(1, len(messages) + 1))
    assert headers["content-type"].startswith("text/event-stream")
    _, _, rest = get(served.url + "events", {"Last-Event-ID": "5"})
    assert sse_messages(rest) == messages[5:]
    status, _, _ = get(served.url + "events", {"Last-Event-ID": str(len(messages))})
    assert status == 204  # all sent: a browser's EventSource stops reconnecting


def test_the_page_s_batched_stream_is_the_same_events_and_resumes(
    serve: Any, tmp_path: Path
) -> None:
    served = serve(fixtures.claude_file(tmp_path))
    single = [event for _, event in sse_messages(get(served.url + "events")[2])]
    _, _, body = get(served.url + "events?batch")
    batches = sse_messages(body)  # (events sent so far, [events])
    assert [event for _, batch in batches for event in batch] == single
    assert [number for number, _ in batches] == list(
        itertools.accumulate(len(batch) for _, batch in batches)
    )
    _, _, rest = get(served.url + "events?batch", {"Last-Event-ID": "5"})
    assert [event for _, batch in sse_messages(rest) for event in batch] == single[5:]
    status, _, _ = get(served.url + "events?batch", {"Last-Event-ID": str(len(single))})
    assert status == 204


def test_a_malformed_line_is_a_warning_and_the_rest_is_shown(serve: Any, tmp_path: Path) -> None:
    lines = jsonl(codex_run()).splitlines(keepends=True)
    broken = [*lines[:3], '{"type": "item.completed", "item": {\n', *lines[3:]]
    events = _unchunked(events_of(serve(fixtures.write(tmp_path, "broken.jsonl", "".join(broken)))))
    warnings = [
        e["value"]["message"] for e in events if e.get("name") == "streamblocks.view.warning"
    ]
    assert len(warnings) == 1
    assert warnings[0].startswith("line 4: invalid JSON")
    assert _shape(events) == _shape(_expected(codex_run()))


def test_an_unknown_event_format_says_how_to_choose_an_adapter(serve: Any, tmp_path: Path) -> None:
    events = events_of(serve(fixtures.write(tmp_path, "odd.jsonl", '{"foo": 1}\n{"bar": 2}\n')))
    [warning] = [e["value"]["message"] for e in events if e.get("name") == VIEW_WARNING]
    assert "no input adapter recognised" in warning
    assert "--adapter NAME" in warning
    assert [e["event"] for e in events if e["type"] == "RAW"] == [{"foo": 1}, {"bar": 2}]


def test_the_export_is_the_content_model_and_opens_again(serve: Any, tmp_path: Path) -> None:
    served = serve(fixtures.claude_file(tmp_path))
    events_of(served)  # the whole run has been read
    status, headers, body = get(served.url + "export.json")
    assert status == 200
    assert "attachment" in headers["content-disposition"]
    exported = Message.model_validate_json(body)
    processor = StreamBlockProcessor(default_registry(), unknown="block")
    assert exported == MessageAccumulator().add_all(processor.process(claude_tool_run()))

    again = serve(fixtures.write(tmp_path, "run.json", body))
    events = _unchunked(events_of(again))
    assert [e["toolCallName"] for e in events if e["type"] == "TOOL_CALL_START"] == [
        "Read", "Bash", "Edit", "Write", "TodoWrite",
    ]  # fmt: skip
    _, _, second = get(again.url + "export.json")
    assert Message.model_validate_json(second) == exported


def test_pages_carry_a_csp_and_foreign_hosts_are_refused(serve: Any, tmp_path: Path) -> None:
    served = serve(fixtures.codex_file(tmp_path))
    for path in ("", "static/js/app.js", "static/viewer.css"):
        status, headers, _ = get(served.url + path)
        assert status == 200
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp
        assert "unsafe-inline" not in csp
        assert "require-trusted-types-for 'script'" in csp
    status, _, _ = get(served.url, {"Host": "attacker.example"})
    assert status == 400


# -- the command, as a process -----------------------------------------------------------


def _command(*args: str, **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "streamblocks", "view", "--no-open", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def _url(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert found, line
    return found.group(0)


def test_stdin_is_shown_before_the_input_ends() -> None:
    import http.client
    from urllib.parse import urlsplit

    process = _command("-", stdin=subprocess.PIPE)
    try:
        url = urlsplit(_url(process))
        assert process.stdin is not None
        lines = jsonl(claude_tool_run()).splitlines(keepends=True)
        process.stdin.write("".join(lines[:4]))  # up to the first tool call
        process.stdin.flush()
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=20)
        connection.request("GET", "/events")
        response = connection.getresponse()
        seen: list[str] = []
        while "TOOL_CALL_END" not in seen:
            line = response.readline().decode()
            assert line, "the stream ended before the tool call arrived"
            if line.startswith("data: "):
                seen.append(json.loads(line[6:])["type"])
        assert "RUN_FINISHED" not in seen  # the input is still open
        process.stdin.write("".join(lines[4:]))
        process.stdin.close()
        while "RUN_FINISHED" not in seen:
            line = response.readline().decode()
            assert line, "the stream ended without RUN_FINISHED"
            if line.startswith("data: "):
                seen.append(json.loads(line[6:])["type"])
        connection.close()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(15)


def test_piped_text_is_shown_before_its_line_ends() -> None:
    import http.client
    from urllib.parse import urlsplit

    process = _command("-", stdin=subprocess.PIPE)
    try:
        url = urlsplit(_url(process))
        assert process.stdin is not None
        process.stdin.write("Hello, wor")
        process.stdin.flush()
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=20)
        connection.request("GET", "/events")
        response = connection.getresponse()
        text = ""
        while "wor" not in text:
            line = response.readline().decode()
            assert line, "the stream ended before the text arrived"
            if line.startswith("data: "):
                event = json.loads(line[6:])
                text += event.get("delta", "") if event["type"] == "TEXT_MESSAGE_CONTENT" else ""
        assert text == "Hello, wor"
        connection.close()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(15)


def test_ctrl_c_stops_the_server_cleanly_while_a_page_watches() -> None:
    import http.client
    from urllib.parse import urlsplit

    process = _command("-", stdin=subprocess.PIPE)  # live: the page's stream stays open
    url = urlsplit(_url(process))
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=20)
    connection.request("GET", "/events")
    response = connection.getresponse()
    assert response.status == 200
    process.send_signal(signal.SIGINT)
    assert process.wait(15) == 0
    # the stream ended, it was not cut, and it said why the run will not finish
    [(_, stopped)] = sse_messages(response.read().decode())
    assert stopped["name"] == "streamblocks.view.stopped"
    assert "Ctrl-C" in stopped["value"]["reason"]
    connection.close()
    assert process.stderr is not None
    err = process.stderr.read()
    assert "stopped" in err
    assert "Traceback" not in err and "ERROR" not in err
    assert process.stdin is not None
    process.stdin.close()


def test_a_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        process = _command(str(fixtures.codex_file(tmp_path)), "--port", str(port))
        _, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert f"port {port} on 127.0.0.1 is in use" in err
    assert "Traceback" not in err


def test_an_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    process = _command(str(tmp_path / "missing.jsonl"))
    _, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "cannot read" in err and "missing.jsonl" in err


def test_without_the_extra_the_command_names_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from streamblocks.cli import main
    from streamblocks.cli.commands import view as command

    monkeypatch.setattr(command, "EXTRA_MODULES", ("streamblocks_view_missing_module",))
    assert main(["view", "--no-open", os.devnull]) == 2
    err = capsys.readouterr().err
    assert "pip install '.[view]'" in err
    assert "pip install streamblocks" not in err


def test_the_page_is_in_the_package() -> None:
    from streamblocks.view.server import static_dir

    files = {path.relative_to(static_dir()).as_posix() for path in static_dir().rglob("*")}
    assert {"index.html", "viewer.css", "js/app.js", "vendor/highlight.min.js"} <= files


def test_a_bad_line_is_also_printed_on_stderr(tmp_path: Path) -> None:
    lines = jsonl(codex_run()).splitlines(keepends=True)
    path = fixtures.write(
        tmp_path, "broken.jsonl", "".join([*lines[:3], "{not json\n", *lines[3:]])
    )
    process = _command(str(path))
    try:
        _, _, body = get(_url(process) + "events")
        assert "line 4: invalid JSON" in body
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=15)
    assert "streamblocks view: warning: line 4: invalid JSON" in err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--port", "99999"], "--port: must be a whole number from 0 to 65535, got '99999'"),
        (["--port", "http"], "--port: must be a whole number"),
        (["--replay-speed", "0"], "--replay-speed: must be a number"),
        (["--replay-speed", "nan"], "--replay-speed: must be a number"),
    ],
)
def test_every_number_is_checked(args: list[str], said: str, tmp_path: Path) -> None:
    process = _command(str(fixtures.codex_file(tmp_path)), *args)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert said in err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_a_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    process = _command(str(path))
    _, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert "image.png looks like a binary file (it contains NUL bytes)" in err


def test_binary_on_a_pipe_stops_the_run_and_says_why() -> None:
    process = _command("-", stdin=subprocess.PIPE)
    try:
        assert process.stdin is not None
        process.stdin.write("\x00\x01\x02 not text\n")
        process.stdin.close()
        _, _, body = get(_url(process) + "events")
        names = [event.get("name") for _, event in sse_messages(body)]
        assert names[-1] == "streamblocks.view.stopped"
        assert "binary" in body
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(15)
    assert process.stderr is not None
    err = process.stderr.read()
    assert "warning: reading the input failed: BinaryInput: the input looks like a binary" in err


def test_a_terminal_on_stdin_is_refused_with_the_usage() -> None:
    import pty

    parent, child = pty.openpty()
    try:
        process = _command(stdin=child)
        _, err = process.communicate(timeout=30)
    finally:
        os.close(child)
        os.close(parent)
    assert process.returncode == 2
    assert err.startswith("usage: streamblocks view")
    assert "standard input is a terminal" in err


def _subagent_messages(events: list[dict[str, Any]], agent: str | None = None) -> set[str]:
    """The ids of the text messages a sub-agent (``agent``, or any) wrote."""
    return {
        e["messageId"]
        for e in events
        if e["type"] == "TEXT_MESSAGE_START"
        and e.get("subagentRunId", None) is not None
        and agent in (None, e["subagentRunId"])
    }


@pytest.mark.parametrize("whole", [False, True], ids=["event by event", "read whole"])
def test_a_sub_agent_s_rows_are_attributed_to_it(serve: Any, whole: bool) -> None:
    """AG-UI 1.0: each sub-agent is announced by SUBAGENT_STARTED naming its call, and
    every event of its rows carries its ``subagentRunId`` (no viewer event needed)."""
    from streamblocks.runs import live as source

    items = iter(fixtures.subagent_events())
    events = _unchunked(events_of(serve(source.Items(items, source.Waits()) if whole else items,
                             fixtures.Replay())))  # fmt: skip
    assert _names_of(events, "streamblocks.view.parent") == []
    assert _names_of(events, "streamblocks.block_start") == []  # their text is text
    started = [
        (e["subagentRunId"], e["parentToolCallId"], e.get("parentSubagentRunId"))
        for e in events
        if e["type"] == "SUBAGENT_STARTED"
    ]
    assert started == [("task1", "task1", None), ("task2", "task2", "task1")]
    nested: dict[str, str] = {}
    for event in events:
        kind = event["type"]
        row = (
            event.get("toolCallId") if kind in ("TOOL_CALL_START", "TOOL_CALL_RESULT")
            else event.get("messageId") if kind in ("REASONING_START", "TEXT_MESSAGE_START")
            else None
        )  # fmt: skip
        if row is not None and "subagentRunId" in event:
            nested[f"{kind}:{row.split('-', 1)[-1]}"] = event["subagentRunId"]
    assert nested == {
        "REASONING_START:a1": "task1",
        "TEXT_MESSAGE_START:a2": "task1",
        "TOOL_CALL_START:read1": "task1",
        "TOOL_CALL_RESULT:read1": "task1",
        "TOOL_CALL_START:task2": "task1",
        "TEXT_MESSAGE_START:b1": "task2",
        "TOOL_CALL_START:grep1": "task2",
        "TOOL_CALL_RESULT:grep1": "task2",
        "TOOL_CALL_RESULT:task2": "task1",
        "TEXT_MESSAGE_START:a3": "task1",
    }
    theirs = _subagent_messages(events)
    texts = [
        e["delta"]
        for e in events
        if e["type"] == "TEXT_MESSAGE_CONTENT" and e["messageId"] not in theirs
    ]
    assert texts == ["I'll delegate the search.\n", "Done: add() subtracts.\n"]
    ended = [e["subagentRunId"] for e in events if e["type"] == "SUBAGENT_FINISHED"]
    assert ended == ["task2", "task1"]


# -- merged deltas, what a wait publishes, the export folded on request ---------------------


def test_a_file_s_consecutive_deltas_arrive_merged_and_export_the_same(
    serve: Any, tmp_path: Path
) -> None:
    # text, thinking and arguments a few characters a line (no usage: as above)
    lines = _without_usage(claude_partial_run())
    served = serve(fixtures.write(tmp_path, "partial.jsonl", jsonl(lines)))
    events = _unchunked(events_of(served))
    expected = _expected(lines)
    assert _shape(events) == _shape(expected)
    contents = [e for e in events if e["type"] == "TEXT_MESSAGE_CONTENT"]
    unmerged = [e for e in _unmerged(lines) if e["type"] == "TEXT_MESSAGE_CONTENT"]
    assert len(contents) < len(unmerged)  # fewer events for the encoder and the page
    assert "".join(e["delta"] for e in contents) == "".join(e["delta"] for e in unmerged)
    processor = StreamBlockProcessor(default_registry(), unknown="block")
    _, _, body = get(served.url + "export.json")
    assert Message.model_validate_json(body) == MessageAccumulator().add_all(
        processor.process(lines)
    )


@contextlib.contextmanager
def _served_from_a_pipe(
    serve: Any, first: str, published: str, then: str
) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
    """Serve a pipe: write ``first``, wait until an event holds ``published`` (sent while
    the pipe waits), write ``then`` and close it; gives the server and the events sent
    during the wait."""
    import io

    from streamblocks.runs import live as source

    read_end, write_end = os.pipe()
    handle = io.FileIO(read_end, "rb")
    try:
        with open(write_end, "w") as writer:
            served = serve(source.read(handle, text=True))
            writer.write(first)
            writer.flush()
            deadline = time.monotonic() + 20
            while not any(published in event for event in served.run.events):
                assert time.monotonic() < deadline, f"{published!r} not sent while the pipe waited"
                time.sleep(0.01)
            sent = [json.loads(event) for event in served.run.events]
            writer.write(then)
        yield served, sent
    finally:
        handle.close()


def test_what_was_read_before_a_pipe_waits_is_sent_and_never_changes(serve: Any) -> None:
    with _served_from_a_pipe(serve, "Hello, ", "Hello", "world.\n") as (served, sent):
        messages = sse_messages(get(served.url + "events")[2])
    assert [event for _, event in messages[: len(sent)]] == sent
    deltas = [e["delta"] for _, e in messages if e["type"] == "TEXT_MESSAGE_CONTENT"]
    assert deltas == ["Hello, ", "world.\n"]  # not merged across the wait
    assert messages[-1][1]["type"] == "RUN_FINISHED"
    _, _, rest = get(served.url + "events", {"Last-Event-ID": str(len(sent))})
    assert sse_messages(rest) == messages[len(sent) :]


# -- a card read whole is sent as its end ---------------------------------------------------


def _names(events: list[dict[str, Any]], name: str) -> list[Any]:
    return [event["value"] for event in events if event.get("name") == name]


def test_a_card_read_whole_arrives_as_its_end_alone(serve: Any) -> None:
    from streamblocks.runs import live as source

    events = fixtures.card_events()
    # a source that never waits: read at once, like a file; a plain iterator of events
    # is published before each of them, like a pipe that waits between events
    whole_served = serve(source.Items(iter(events), source.Waits()), fixtures.Replay())
    split_served = serve(iter(events), fixtures.Replay())
    sent = events_of(whole_served)
    whole, split = _unchunked(sent), _unchunked(events_of(split_served))
    started = [value["block_id"] for value in _names(split, "streamblocks.block_start")]
    assert started == ["n1", "c1", "x1", "f1", "k1", "k2", "d1"]
    # native code whose content is not its deltas' text keeps its start
    assert [value["block_id"] for value in _names(whole, "streamblocks.block_start")] == ["k2"]
    assert _names(whole, "streamblocks.block_metadata") == []
    assert _names(whole, "streamblocks.block_end") == _names(split, "streamblocks.block_end")
    assert _shape(whole) == _shape(_whole(_merged(split)))
    # the sub-agent's text is text messages of its own, attributed to it (AG-UI 1.0)
    theirs = _subagent_messages(whole, "task9")
    subagent_text = [
        e["delta"]
        for e in whole
        if e["type"] == "TEXT_MESSAGE_CONTENT" and e["messageId"] in theirs
    ]
    assert subagent_text == [
        "SUB TEXT",
        "partial",  # its deltas' text, as its row showed it while it streamed
    ]
    assert [e["subagentRunId"] for e in whole if e["type"] == "SUBAGENT_STARTED"] == ["task9"]
    # the export is the same run
    assert get(whole_served.url + "export.json")[2] == get(split_served.url + "export.json")[2]
    # and a page resuming inside the run gets the rest exactly
    rest = sse_messages(get(whole_served.url + "events", {"Last-Event-ID": "3"})[2])
    assert [event for _, event in rest] == sent[3:]


def test_a_card_split_by_a_wait_is_sent_as_it_grows(serve: Any) -> None:
    first = "Before.\n!!n1:note\nfirst line\n"
    with _served_from_a_pipe(serve, first, "first line", "second line\n!!end\n") as (served, _):
        events = _unchunked(events_of(served))
    names = [event.get("name") for event in events if event["type"] == "CUSTOM"]
    assert names[0] == "streamblocks.block_start"
    assert names[-1] == "streamblocks.block_end"
    assert _names(events, "streamblocks.block_end")[0]["content"] == "first line\nsecond line\n"


# -- a whole message as one chunk -----------------------------------------------------------


def _without_usage(value: Any) -> Any:
    """A transcript's lines without their token usage (no turn's usage to show)."""
    if isinstance(value, dict):
        return {key: _without_usage(item) for key, item in value.items() if key != "usage"}
    if isinstance(value, list):
        return [_without_usage(item) for item in value]
    return value


def test_a_turns_usage_ends_its_text(serve: Any, tmp_path: Path) -> None:
    lines = claude_partial_run()
    events = events_of(serve(fixtures.write(tmp_path, "partial.jsonl", jsonl(lines))))
    types = _types(events)
    # the last text is whole: its turn's usage ends it, before the run's result (RAW)
    assert "TEXT_MESSAGE_START" not in types
    assert types[-4:] == ["TEXT_MESSAGE_CHUNK", "CUSTOM", "RAW", "RUN_FINISHED"]
    assert events[-3]["name"] == "streamblocks.view.usage"


def test_a_file_s_whole_messages_arrive_as_one_chunk_each(serve: Any, tmp_path: Path) -> None:
    # its thinking, text and call arguments streamed in pieces (without usage: the
    # project's AG-UI output, compared below, has no usage of a turn to end a text)
    lines = _without_usage(claude_partial_run())
    events = events_of(serve(fixtures.write(tmp_path, "partial.jsonl", jsonl(lines))))
    types = _types(events)
    assert {"TEXT_MESSAGE_CHUNK", "REASONING_MESSAGE_CHUNK", "TOOL_CALL_CHUNK"} <= set(types)
    assert not {"REASONING_START", "TOOL_CALL_START"} & set(types)
    # the last text has the run's result (a RAW event) between its content and its end
    [opened] = [index for index, kind in enumerate(types) if kind == "TEXT_MESSAGE_START"]
    assert types[opened:] == [
        "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "RAW", "TEXT_MESSAGE_END", "RUN_FINISHED",
    ]  # fmt: skip
    # the card of a call read whole fills at once: no value as far as written
    assert _names_of(events, "streamblocks.view.partial") == []
    # message ids carry 8 characters of the run's stream id, not 32, and stay unique
    ids = [event["messageId"] for event in events if "messageId" in event]
    assert all(len(ident.split("-", 1)[0]) == 8 for ident in ids)
    texts = [e["messageId"] for e in events if e["type"].startswith("TEXT_MESSAGE_CHUNK")]
    assert len(set(texts)) == len(texts)
    [call] = [event for event in events if event["type"] == "TOOL_CALL_CHUNK"]
    assert call["toolCallName"] == "Bash"
    assert json.loads(call["delta"]) == {"command": "pytest -q"}
    assert _shape(_unchunked(events)) == _shape(_expected(lines))


def test_a_message_that_ends_what_is_published_is_sent_as_its_events(serve: Any) -> None:
    # published line by line (a pipe that waits between lines): each thinking block, text
    # and call ends what is published, so each is its message's events, as the output
    # adapter makes them, not a chunk (which would stay open until the next line)
    lines = claude_partial_run()
    events = events_of(serve(iter(lines)))
    assert not {"REASONING_MESSAGE_CHUNK", "TOOL_CALL_CHUNK"} & set(_types(events))

    def messages(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        kinds = (
            "TEXT_MESSAGE_",
            "REASONING_",
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
        )
        found = _merged(
            [
                event
                for event in events
                if event["type"].startswith(kinds) and event["type"] != "REASONING_ENCRYPTED_VALUE"
            ]
        )
        for event in found:  # the ids less the run's own stream id
            for key in ("messageId", "parentMessageId"):
                if key in event:
                    event[key] = event[key].split("-", 1)[1]
        return found

    assert messages(events) == messages(_unmerged(lines))


def test_a_run_read_whole_exports_and_resumes_as_one_published_event_by_event(
    serve: Any, tmp_path: Path
) -> None:
    lines = claude_tool_run()  # thinking, text, calls and results, a failed one, a plan
    whole = serve(fixtures.write(tmp_path, "claude.jsonl", jsonl(lines)))
    split = serve(iter(lines))
    sent = events_of(whole)
    assert "TOOL_CALL_CHUNK" in _types(sent)
    export = get(whole.url + "export.json")[2]
    assert export == get(split.url + "export.json")[2]
    processor = StreamBlockProcessor(default_registry(), unknown="block")
    assert Message.model_validate_json(export) == MessageAccumulator().add_all(
        processor.process(lines)
    )
    for resume in range(len(sent)):  # from any event on, the rest exactly
        rest = sse_messages(get(whole.url + "events", {"Last-Event-ID": str(resume)})[2])
        assert [event for _, event in rest] == sent[resume:]
