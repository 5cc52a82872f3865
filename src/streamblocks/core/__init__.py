"""The core: events, blocks, registry, limits, errors, the session and the processor."""
