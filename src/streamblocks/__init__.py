"""streamblocks: extract structured blocks from streaming LLM output in real time."""
