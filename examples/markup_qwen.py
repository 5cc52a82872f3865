"""A Qwen3 reply served without a tool parser: its <think> and <tool_call> markup read
out of the text as it streams (here in 5-character chunks)."""

from streamblocks import BlockRegistry, StreamBlockProcessor, collect

REPLY = (
    "<think>\nThe user wants the weather in Paris. I'll call the tool.\n</think>\n\n"
    "Let me check.\n"
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
)
chunks = [REPLY[i : i + 5] for i in range(0, len(REPLY), 5)]

processor = StreamBlockProcessor(BlockRegistry(), markup="qwen3")
for event in processor.process(chunks):
    kind = event.type.value
    if kind == "BLOCK_START":
        print(kind, event.block_type, dict(event.attrs))
    elif kind == "BLOCK_END":
        print(kind, event.block.type, dict(event.block.attrs), repr(event.block.content))
    elif kind in ("TEXT_DELTA", "BLOCK_DELTA"):
        print(kind, repr(event.text))
    else:
        print(kind)

step = collect(chunks, processor=processor)
print("text:", repr(step.text))
print("thinking:", repr(step.thinking))
print("tool calls:", [(call.name, call.arguments) for call in step.tool_calls])
