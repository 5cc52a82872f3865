// AG-UI events into rows: the methods of <sb-run> (app.js) that fold the run's AG-UI
// events — text, reasoning and tool-call messages, their *_CHUNK forms, results — into
// row models (list.js). A long text is cut into rows at its pieces (pieces.js); a tool
// result waits for the event after it, which may be the typed row it stands for.

import { NATIVE_ROWS } from "./custom.js";
import { Item, NONE } from "./list.js";
import { Pieces } from "./pieces.js";

const QUIET_TYPES = new Set([
  "STEP_STARTED", "STEP_FINISHED", "STATE_SNAPSHOT", "STATE_DELTA", "MESSAGES_SNAPSHOT",
  "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "REASONING_ENCRYPTED_VALUE", "THINKING_START",
  "THINKING_END",
]);
// A *_CHUNK event's message: its rows by id, and the key of the id in the event.
const CHUNKS = { TEXT_MESSAGE_CHUNK: ["texts", "messageId"], REASONING_MESSAGE_CHUNK: ["thoughts", "messageId"], TOOL_CALL_CHUNK: ["tools", "toolCallId"] };
const EMPTY = Object.freeze({});

export const EventRows = {
  // Do `method(arg)` to the row `rows` has under `key`, if there is one.
  do(rows, key, method, arg) {
    const item = rows.get(key);
    if (item === undefined) return null;
    item.do(method, arg);
    if (item.el !== null) this.list.touch(item);
    return item;
  },

  // A message sent as *_CHUNK events ends with the first event that does not continue
  // it (AG-UI's rule; the server sends a whole message as one chunk).
  endChunk(event) {
    const item = this.chunk;
    const found = CHUNKS[event.type];
    if (found !== undefined && this[found[0]].get(event[found[1]]) === item) return;
    this.chunk = null;
    this.pieces.delete(this.chunkKey);
    item.do("end");
    if (item.el !== null) this.list.touch(item);
  },

  // A *_CHUNK event: a new row, or more of the chunked message before it (an id used
  // again later is another message, as its *_START would be).
  chunked(event, rows, key, tag, args = NONE) {
    if (this.chunk === null) {
      this.chunk = this.add(tag, args, rows, key);
      this.chunkKey = key;
    }
    if (typeof event.delta !== "string" || !event.delta) return;
    if (rows === this.texts) this.addText(key, event.delta);
    else this.do(rows, key, "add", event.delta);
  },

  // A message's text: a long message goes on in a new row at each of its cuts
  // (pieces.js); the earlier piece is ended, so it is drawn as the complete markdown it is.
  addText(key, delta) {
    let pieces = this.pieces.get(key);
    if (pieces === undefined) this.pieces.set(key, (pieces = new Pieces()));
    let from = 0;
    for (const cut of pieces.cuts(delta)) {
      if (cut > from) this.do(this.texts, key, "add", delta.slice(from, cut));
      const before = this.do(this.texts, key, "end");
      const item = new Item("sb-text");
      this.list.add(item, before?.parent ?? null);
      this.texts.set(key, item);
      this.outline.added(item);
      if (this.chunk === before) this.chunk = item;
      from = cut;
    }
    if (from < delta.length) this.do(this.texts, key, "add", from ? delta.slice(from) : delta);
  },

  // The thinking row of a reasoning event (made if it is not there yet).
  thought(event) {
    const key = event.messageId ?? "current";
    if (!this.thoughts.has(key)) this.add("sb-thinking", NONE, this.thoughts, key);
    return key;
  },

  // A tool result is drawn once. Claude Code's Bash, Read, Edit and TodoWrite results come
  // as a result and then the typed row they stand for (the terminal, the code panel…)
  // naming the same call, so a result waits for the next event and is not drawn when
  // that row follows. True when `event` was taken in while waiting.
  settle(event) {
    const held = this.held;
    const id = held.event.toolCallId;
    if (event.type === "CUSTOM") {
      const value = event.value ?? EMPTY;
      const name = event.name;
      if (name === "streamblocks.view.tool_error" && value.tool_call_id === id) {
        held.failed = true;
        return true;
      }
      if (name === "streamblocks.view.parent") {
        this.parentOf = value.parent_id ?? null; // (the row after the result's)
        return true;
      }
      const typed = (name === "streamblocks.block_start" || name === "streamblocks.block_end")
        && value.syntax === "native" && NATIVE_ROWS[value.block_type ?? value.type] !== undefined;
      if (typed && value.attrs?.tool_call_id === id) {
        this.held = null; // the typed row stands for the result
        return false;
      }
    }
    this.release();
    return false;
  },

  // Draw the tool result held back (nested where it arrived).
  release() {
    const { event, failed, parent } = this.held;
    this.held = null;
    const after = this.parentOf;
    this.parentOf = parent;
    const result = this.add("sb-tool-result", [event.toolCallId, event.content, this.toolNames.get(event.toolCallId)]);
    this.parentOf = after;
    this.lastResult.set(event.toolCallId, result);
    if (failed) this.custom("streamblocks.view.tool_error", { tool_call_id: event.toolCallId });
  },

  apply(event) {
    if (this.held !== null && this.settle(event)) return;
    const type = String(event.type);
    switch (type) {
      case "RUN_STARTED":
        return;
      case "SUBAGENT_STARTED":
        this.subagents.set(event.subagentRunId, event.parentToolCallId ?? event.subagentRunId);
        return;
      case "SUBAGENT_FINISHED":
      case "SUBAGENT_ERROR":
        return; // the call's result row says how it ended
      case "TEXT_MESSAGE_START":
        this.add("sb-text", NONE, this.texts, event.messageId);
        return;
      case "TEXT_MESSAGE_CONTENT":
        if (!this.texts.has(event.messageId)) this.add("sb-text", NONE, this.texts, event.messageId);
        if (typeof event.delta === "string") this.addText(event.messageId, event.delta);
        return;
      case "TEXT_MESSAGE_END":
        this.do(this.texts, event.messageId, "end");
        this.pieces.delete(event.messageId);
        return;
      case "TEXT_MESSAGE_CHUNK":
        this.chunked(event, this.texts, event.messageId, "sb-text");
        return;
      case "REASONING_MESSAGE_CHUNK":
        this.chunked(event, this.thoughts, event.messageId ?? "current", "sb-thinking");
        return;
      case "TOOL_CALL_CHUNK":
        if (this.chunk === null) this.toolNames.set(event.toolCallId, event.toolCallName);
        this.chunked(event, this.tools, event.toolCallId, "sb-tool-call", [event.toolCallName, event.toolCallId]);
        return;
      case "REASONING_START":
      case "REASONING_MESSAGE_START":
      case "THINKING_TEXT_MESSAGE_START":
        this.thought(event);
        return;
      case "REASONING_MESSAGE_CONTENT":
      case "THINKING_TEXT_MESSAGE_CONTENT":
        this.do(this.thoughts, this.thought(event), "add", event.delta);
        return;
      case "REASONING_MESSAGE_END":
      case "REASONING_END":
      case "THINKING_TEXT_MESSAGE_END":
        this.do(this.thoughts, event.messageId ?? "current", "end");
        return;
      case "TOOL_CALL_START":
        this.toolNames.set(event.toolCallId, event.toolCallName);
        this.add("sb-tool-call", [event.toolCallName, event.toolCallId], this.tools, event.toolCallId);
        return;
      case "TOOL_CALL_ARGS":
        this.do(this.tools, event.toolCallId, "add", event.delta);
        return;
      case "TOOL_CALL_END":
        this.do(this.tools, event.toolCallId, "end");
        return;
      case "TOOL_CALL_RESULT":
        this.held = { event, failed: false, parent: this.parentOf };
        this.parentOf = null;
        return;
      case "CUSTOM":
        this.custom(String(event.name), event.value ?? {});
        return;
      case "RAW": {
        const raw = event.event ?? {};
        this.footer?.raw(raw);
        const kind = raw && typeof raw === "object" && raw.type ? String(raw.type) : "event";
        this.add("sb-notice", ["raw", `${event.source ? `${event.source} ` : ""}${kind}`, raw]);
        return;
      }
      case "RUN_FINISHED":
        this.finish("finished", event.result ?? {}, null);
        return;
      case "RUN_ERROR": {
        const message = event.message ?? "the run failed";
        this.warn(`The run failed: ${message}`);
        this.finish("failed", {}, message);
        return;
      }
      default:
        if (!QUIET_TYPES.has(type)) this.warn(`an unknown event was skipped: ${type.slice(0, 60)}`);
    }
  },
};
