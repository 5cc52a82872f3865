"""The Claude CLI and Codex CLI adapters as they were before their per-line work was cut
(streamblocks ``a60f046``), frozen: the oracle the faster ones must agree with, event
for event and warning for warning (``tests/adapters/test_transcripts_same.py``).

Only the imports were changed (the package's own modules, absolute); nothing here is
used by the library.
"""
