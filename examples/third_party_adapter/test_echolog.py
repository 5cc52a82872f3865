"""The example adapter checked with streamblocks' conformance kit."""

from echolog_streamblocks import EchoLogInputAdapter

from streamblocks import StopReason, Usage
from streamblocks.testing import AdapterConformance, AdapterSample


class TestEchoLog(AdapterConformance):
    adapter_factory = EchoLogInputAdapter
    registered = True  # installed: auto-detection must find it
    samples = (
        AdapterSample(
            "reply",
            [
                {"echolog": "token", "text": "Hel"},
                {"echolog": "token", "text": "lo"},
                {"echolog": "usage", "in": 12, "out": 3},
                {"echolog": "done", "reason": "complete"},
            ],
            "Hello",
            StopReason.end_turn,
            Usage(input_tokens=12, output_tokens=3),
        ),
    )
    text_event = staticmethod(lambda piece: {"echolog": "token", "text": piece})


def test_fixtures_from_the_streamblocks_pytest_plugin(adapter_run, text_splits):
    # ``adapter_run`` and ``text_splits`` come from streamblocks' pytest11 plugin.
    for pieces in text_splits("a\n!!b1:note\n"):
        events = [{"echolog": "token", "text": piece} for piece in pieces]
        assert adapter_run(EchoLogInputAdapter(), events).text == "a\n!!b1:note\n"
