"""The page as one file (``streamblocks view RUN --html OUT``) and *Save as HTML*."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from streamblocks.cli import main
from streamblocks.view import page

from . import fixtures
from .served import get


def _inline_scripts(html: str) -> list[str]:
    return re.findall(r"<script(?: type=\"module\")?>(.*?)</script>", html, re.S)


def _sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _events(html: str) -> list[dict[str, Any]]:
    batches = re.findall(
        r'<script type="application/json" class="sb-batch">(.*?)</script>', html, re.S
    )
    return [event for batch in batches for event in json.loads(batch)]


def test_the_file_holds_the_page_and_the_run_and_refers_to_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run.html"
    assert main(["view", str(fixtures.claude_file(tmp_path)), "--html", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    # nothing is fetched: no src= and no href= but the data: icon
    assert re.findall(r"\s(?:src|href)=\"([^\"]*)\"", html) == ["data:,"]
    # each inline script and style is allowed by its hash, nothing else is
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert csp is not None
    policy = dict(part.split(" ", 1) for part in csp.group(1).split("; "))
    scripts = _inline_scripts(html)
    assert len(scripts) == 2
    assert policy["script-src"] == " ".join(_sha(script) for script in scripts)
    styles = re.findall(r"<style[^>]*>(.*?)</style>", html, re.S)
    assert policy["style-src"] == " ".join(_sha(style) for style in styles)
    assert policy["default-src"] == "'none'" and "connect-src" not in policy
    # the run: the events the server would send, ending with the run's end
    events = _events(html)
    assert events[0]["type"] == "RUN_STARTED" and events[-1]["type"] == "RUN_FINISHED"
    info = json.loads(re.search(r'id="sb-info">(.*?)</script>', html, re.S).group(1))  # type: ignore[union-attr]
    assert info == {"title": "claude.jsonl", "live": False, "saved": True, "redacted": False}


def test_markup_in_the_run_cannot_end_its_script_element(tmp_path: Path) -> None:
    text = "a </script><script>alert(1)</script> <!-- b\n"
    path = fixtures.write(tmp_path, "hostile.txt", text)
    out = tmp_path / "hostile.html"
    assert main(["view", str(path), "--html", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    batches = html.count('class="sb-batch"')
    assert html.count("<script") == html.count("</script>") == 3 + batches  # 2 scripts, info
    shown = "".join(e.get("delta", "") for e in _events(html) if "delta" in e)
    assert shown == text


def test_batches_are_the_server_s_a_screenful_first() -> None:
    events = [json.dumps({"n": n}) for n in range(12_000)]
    sizes = [len(json.loads(batch)) for batch in page.batches(events)]
    assert sizes == [200, 5000, 5000, 1800]


def test_the_bundle_reaches_every_module_once() -> None:
    folder = page.static_dir() / "js"
    script = page.bundle(folder)
    for module in folder.glob("*.js"):
        assert script.count(f"// {module.name}\n") == 1, module.name
    assert not re.search(r"^\s*(import|export)\b", script, re.M)


def test_an_unknown_module_form_is_refused(tmp_path: Path) -> None:
    (tmp_path / "app.js").write_text('import * as all from "./x.js";\n')
    with pytest.raises(page.PageError, match="import"):
        page.bundle(tmp_path)
    (tmp_path / "app.js").write_text("export default 1;\n")
    with pytest.raises(page.PageError, match="export"):
        page.bundle(tmp_path)


def test_a_run_saved_before_its_end_says_so(serve: Any) -> None:
    import queue

    lines: queue.Queue[Any] = queue.Queue()
    served = serve(iter(lines.get, None))
    lines.put("some text\n")
    status, headers, body = get(served.url + "export.html")
    assert status == 200 and headers["content-disposition"].endswith('run.html"')
    events = _events(body)
    assert events[-1]["name"] == "streamblocks.view.stopped"
    assert "saved before the run ended" in events[-1]["value"]["reason"]
    lines.put(None)


def test_a_server_that_cannot_read_again_refuses_to_redact(serve: Any) -> None:
    served = serve(iter(["text\n"]))
    status, _, body = get(served.url + "export.html?redact")
    assert status == 409 and "--redact" in body


def test_an_unwritable_output_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = fixtures.write(tmp_path, "a.txt", "hello\n")
    assert main(["view", str(path), "--html", str(tmp_path / "no" / "such" / "x.html")]) == 2
    assert "cannot write" in capsys.readouterr().err
