// <sb-run>: reads the run from /events?batch (AG-UI events over server-sent events, each
// message a JSON array of the events the server had ready: one message and one parse per
// thousands of events) and folds them into rows. Events are queued as they arrive and
// applied once per animation frame;
// applying an event changes a row's model only (list.js), and the frame then draws the
// few rows near the viewport. So a 50 MB run costs the page its models, not its elements.
//
// A sub-agent's rows are nested under the tool call that started it: AG-UI 1.0 events
// carry its `subagentRunId`, which its SUBAGENT_STARTED tied to that call
// (`parentToolCallId`); with an AG-UI SDK older than 1.0, a `streamblocks.view.parent`
// event naming the call comes before each of its rows instead.

import { Item, NONE, VirtualList } from "./list.js";
import { Outline } from "./outline.js";
import { Pieces } from "./pieces.js";
import "./chrome.js";

const FRAME_BUDGET_MS = 24; // events applied per animation frame, at most this long
const NATIVE_ROWS = { command: "sb-command", file_change: "sb-file-change", code: "sb-code-block", todo: "sb-todo" };
const NATIVE_TAGS = new Set(Object.values(NATIVE_ROWS));
const QUIET_TYPES = new Set([
  "STEP_STARTED", "STEP_FINISHED", "STATE_SNAPSHOT", "STATE_DELTA", "MESSAGES_SNAPSHOT",
  "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "REASONING_ENCRYPTED_VALUE", "THINKING_START",
  "THINKING_END",
]);
// A *_CHUNK event's message: its rows by id, and the key of the id in the event.
const CHUNKS = { TEXT_MESSAGE_CHUNK: ["texts", "messageId"], REASONING_MESSAGE_CHUNK: ["thoughts", "messageId"], TOOL_CALL_CHUNK: ["tools", "toolCallId"] };
const AFTER_TOOLS = new Set(["result", "command", "file", "code", "todo"]); // what tool results show
const TURN_STARTS = new Set(["text", "thinking", "tool"]);
const BEFORE_EVENTS = new Set(["connecting", "waiting", "disconnected"]); // states an event ends
const EMPTY = Object.freeze({});

function empty(value) {
  for (const key in value) return false;
  return true;
}

// A block's metadata as its row shows it: null when it says nothing beyond the block's
// id and type (a row skips those, and empty params), which most blocks' metadata is.
function shown(metadata) {
  if (!metadata || typeof metadata !== "object") return null;
  for (const key in metadata) {
    if (key !== "id" && key !== "block_type" && !(key === "params" && Array.isArray(metadata.params) && !metadata.params.length)) return metadata;
  }
  return null;
}

// A server message that was not a JSON array of events: shown as a warning row in turn.
class NotEvents {
  constructor(data) {
    this.data = String(data);
  }
}

class Run extends HTMLElement {
  connectedCallback() {
    this.footer = document.querySelector("sb-footer");
    this.heading = document.querySelector("sb-title");
    this.queue = []; // messages not parsed yet
    this.events = []; // the parsed message being applied
    this.head = 0; // the next of its events
    this.scheduled = false;
    // id -> Item, one map per kind of id: the ids from the events are the keys as they came
    this.texts = new Map(); // AG-UI text message id (its last row: see addText)
    this.pieces = new Map(); // text message id -> where its text is cut into rows
    this.thoughts = new Map(); // reasoning message id ("current" without one)
    this.tools = new Map(); // tool call id
    this.blocks = new Map(); // block id
    this.toolNames = new Map();
    this.lastResult = new Map();
    this.held = null; // a tool result not drawn yet: {event, failed, parent}
    this.parentOf = null; // the tool call id the next row nests under
    this.subagents = new Map(); // subagentRunId -> the tool call that started it
    this.chunk = null; // the row of the last *_CHUNK event: it ends with the next event
    this.lastTop = null; // the kind of the last row not in a sub-agent (for turns)
    this.count = 0;
    this.current = null; // the state, as dataset.state (not read back from the DOM per event)
    this.finished = false;
    this.live = false;
    this.marked = false;
    this.outline = new Outline(this);
    this.list = new VirtualList(this.querySelector(".sb-list"), {
      decorate: (item, el) => this.outline.decorate(item, el),
    });
    this.list.onPaint = () => {
      if (!this.marked && this.list.drawn.length) {
        this.marked = true;
        performance.mark("sb-first-row");
      }
    };
    document.querySelector("sb-toolbar")?.attach(this);
    this.state("connecting");
    const embedded = document.getElementById("sb-info");
    if (embedded !== null) {
      this.readEmbedded(embedded);
      return;
    }
    fetch("/info.json")
      .then((response) => response.json())
      .then((info) => this.shown(info))
      .catch(() => {});
    this.source = new EventSource("/events?batch");
    this.source.onopen = () => {
      if (this.current === "connecting") this.state("waiting");
    };
    this.source.onmessage = (message) => this.enqueue(message.data);
    this.source.onerror = () => {
      if (this.source.readyState === EventSource.CLOSED) this.closed();
      else if (!this.finished) this.state("disconnected");
    };
  }

  shown(info) {
    this.info = info;
    this.live = Boolean(info.live);
    this.list.sticky = this.live;
    this.heading?.show(info);
    this.state(this.current);
    document.querySelector("sb-toolbar")?.offer(info);
  }

  // A saved page (`streamblocks view RUN --html`): the run is in the file, as the
  // server's batches, each read when its turn comes (and its element dropped then).
  readEmbedded(element) {
    this.embedded = true;
    this.shown(JSON.parse(element.textContent));
    for (const batch of document.querySelectorAll("script.sb-batch")) this.enqueue(batch);
    if (!this.queue.length) this.closed();
  }

  // connecting · waiting · streaming · finished · failed · stopped · disconnected
  state(name) {
    this.current = name;
    this.dataset.state = name;
    this.heading?.live(this.live && ["waiting", "streaming", "disconnected"].includes(name));
    this.footer?.update(this);
  }

  // Messages are kept as they came (a string each) and parsed when their turn comes
  // in a frame, so the first frame is not held up by parsing the whole backlog.
  enqueue(data) {
    if (!performance.getEntriesByName("sb-first-event").length) performance.mark("sb-first-event");
    this.queue.push(data);
    if (!this.scheduled) {
      this.scheduled = true;
      requestAnimationFrame(() => this.flush());
    }
  }

  // The next event to apply (parsing the next message when the current one is used up).
  next() {
    while (this.head === this.events.length) {
      if (!this.queue.length) return undefined;
      let data = this.queue.shift();
      if (typeof data !== "string") {
        const element = data;
        data = element.textContent;
        element.remove();
      }
      let events;
      try {
        events = JSON.parse(data);
      } catch {
        events = null;
      }
      this.events = Array.isArray(events) ? events : [new NotEvents(data)];
      this.head = 0;
    }
    this.head += 1;
    return this.events[this.head - 1];
  }

  flush() {
    this.scheduled = false;
    const deadline = performance.now() + FRAME_BUDGET_MS;
    let applied = 0;
    for (let event = this.next(); event !== undefined; event = this.next()) {
      this.handle(event);
      applied += 1;
      // (the clock read every 256 events, and after a long text: a long reply comes
      // as a few events of megabytes, and its first screen is drawn before the rest)
      const long = typeof event.delta === "string" && event.delta.length > 65536;
      if (((applied & 255) === 0 || long) && performance.now() > deadline) break;
    }
    // Every event received is applied: a result still held is drawn (a live run may
    // wait a while before its next event).
    if (this.held !== null && !this.queue.length && this.head === this.events.length) this.release();
    this.list.paint();
    this.outline.update();
    this.footer?.update(this);
    if (this.queue.length || this.head < this.events.length) {
      this.scheduled = true;
      requestAnimationFrame(() => this.flush());
    } else if (this.embedded && !this.finished) {
      this.closed(); // a saved page whose events end without the run's end
    } else if (this.finished && !document.body.dataset.rendered) {
      performance.mark("sb-rendered");
      document.body.dataset.rendered = "true";
      document.dispatchEvent(new Event("sb-rendered"));
    }
  }

  // A new row: nested under the tool call a `streamblocks.view.parent` event named.
  // `rows`, `key`: the map and id the row is found by later.
  add(tag, args = NONE, rows = null, key = null) {
    const item = new Item(tag, args);
    const parent = this.parentOf === null ? null : this.tools.get(this.parentOf) ?? null;
    this.parentOf = null;
    this.list.add(item, parent);
    if (rows !== null) rows.set(key, item);
    if (!parent) {
      if (TURN_STARTS.has(item.kind) && (this.lastTop === null || AFTER_TOOLS.has(this.lastTop))) {
        this.outline.turn(item);
      }
      if (item.kind !== "raw") this.lastTop = item.kind;
    }
    this.outline.added(item);
    return item;
  }

  warn(message) {
    const item = this.add("sb-notice", ["warning", message]);
    this.outline.failed(item, message);
  }

  handle(event) {
    if (event instanceof NotEvents || event === null || typeof event !== "object") {
      const data = event instanceof NotEvents ? event.data : JSON.stringify(event);
      this.warn(`a message that is not a JSON array of events was skipped: ${data.slice(0, 80)}`);
      return;
    }
    this.count += 1;
    if (BEFORE_EVENTS.has(this.current) && !this.finished) this.state("streaming");
    const agent = event.subagentRunId;
    try {
      if (this.chunk !== null) this.endChunk(event);
      if (typeof agent === "string") this.parentOf = this.subagents.get(agent) ?? agent;
      this.apply(event);
    } catch (error) {
      this.warn(`could not show a ${event.type} event: ${error.message}`);
    }
    if (typeof agent === "string") this.parentOf = null;
  }

  // Do `method(arg)` to the row `rows` has under `key`, if there is one.
  do(rows, key, method, arg) {
    const item = rows.get(key);
    if (item === undefined) return null;
    item.do(method, arg);
    if (item.el !== null) this.list.touch(item);
    return item;
  }

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
  }

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
  }

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
  }

  // The thinking row of a reasoning event (made if it is not there yet).
  thought(event) {
    const key = event.messageId ?? "current";
    if (!this.thoughts.has(key)) this.add("sb-thinking", NONE, this.thoughts, key);
    return key;
  }

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
  }

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
  }

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
  }

  custom(name, value) {
    if (name === "streamblocks.block_start") {
      const id = value.block_id;
      if (value.syntax === "native" && value.block_type === "text") {
        this.add("sb-text", NONE, this.blocks, id); // a sub-agent's text
        return;
      }
      const native = value.syntax === "native" && NATIVE_ROWS[value.block_type];
      this.add(native || "sb-block", [native ? value.attrs ?? {} : value], this.blocks, id);
    } else if (name === "streamblocks.block_metadata") {
      this.do(this.blocks, value.block_id, "metadata", value.metadata);
    } else if (name === "streamblocks.block_delta") {
      this.do(this.blocks, value.block_id, "add", value.text ?? "");
    } else if (name === "streamblocks.block_end") {
      let item = this.blocks.get(value.id);
      if (item === undefined) {
        this.custom("streamblocks.block_start", { block_id: value.id, block_type: value.type, syntax: value.syntax, attrs: value.attrs });
        item = this.blocks.get(value.id);
      }
      if (item.tag === "sb-text") {
        if (typeof value.content === "string" && item.ops === null) item.do("add", value.content);
        this.do(this.blocks, value.id, "end");
        return;
      }
      const attrs = value.attrs ?? EMPTY;
      // What a row's end shows: the end replaces what the row showed while it streamed
      // (content and metadata), so those records go (but a code row without the content
      // in its end shows what streamed). The block's raw text and offsets are not kept.
      if (item.tag !== "sb-code-block" || typeof value.content === "string") item.ops = null;
      this.do(this.blocks, value.id, "end", { type: value.type, content: value.content, metadata: shown(value.metadata), attrs: empty(attrs) ? EMPTY : attrs });
      if (item.tag === "sb-command" && ((typeof attrs.exit_code === "number" && attrs.exit_code !== 0) || /fail|error/.test(String(attrs.status ?? "")))) {
        this.outline.failed(item, `command failed: ${String(attrs.command ?? "").slice(0, 60)}`);
      }
    } else if (name === "streamblocks.block_error") {
      const id = value.block_id;
      let item = this.blocks.get(id);
      if (item && NATIVE_TAGS.has(item.tag)) {
        // A native row (a command's terminal) whose block was rejected: it says so itself,
        // and never shows "completed" over an output that was dropped.
        this.do(this.blocks, id, "fail", value);
        this.outline.failed(item, `${value.code ?? "error"}: ${value.message ?? ""}`);
        return;
      }
      if (!item || item.tag !== "sb-block") {
        item = this.add("sb-block", [{ block_id: id, block_type: value.block_type ?? "block", syntax: "" }], this.blocks, id);
      }
      this.do(this.blocks, id, "fail", value);
      this.outline.failed(item, `${value.code ?? "error"}: ${value.message ?? ""}`);
    } else if (name === "streamblocks.view.parent") {
      this.parentOf = value.parent_id ?? null;
    } else if (name === "streamblocks.view.warning") {
      this.warn(String(value.message ?? "warning"));
    } else if (name === "streamblocks.view.stopped") {
      const reason = String(value.reason ?? "the input ended before the run did");
      this.add("sb-notice", ["warning", `Stopped: ${reason}`]);
      this.finish("stopped", {}, null, reason);
    } else if (name === "streamblocks.view.redacted") {
      this.footer?.redacted(value.counts ?? {});
    } else if (name === "streamblocks.view.usage") {
      this.outline.used(value);
    } else if (name === "streamblocks.view.partial") {
      this.do(this.tools, value.tool_call_id, "partial", value.value);
    } else if (name === "streamblocks.view.tool_error") {
      const result = this.lastResult.get(value.tool_call_id);
      if (result) {
        result.do("error");
        if (result.el) this.list.touch(result);
        this.outline.failed(result, `${this.toolNames.get(value.tool_call_id) ?? "tool"} failed`);
      }
    } else {
      this.add("sb-notice", ["raw", `custom event ${name}`, value]);
    }
  }

  finish(state, result, error, reason = null) {
    if (this.finished) return;
    if (this.held !== null) this.release();
    this.finished = true;
    if (this.chunk !== null) this.endChunk({});
    if (state !== "finished") this.cutOpenRows();
    else if (this.list.items.length === 0) this.add("sb-notice", ["empty", "Nothing to show: the input held no text and no events"]);
    this.source?.close();
    this.state(state);
    this.footer?.finish(this, result, error, reason);
  }

  // Blocks, tool calls and thoughts the run never ended (Ctrl-C, an input broken off)
  // say so.
  cutOpenRows() {
    for (const rows of [this.blocks, this.tools, this.thoughts]) {
      for (const item of rows.values()) {
        if (item.ended()) continue;
        item.do("cut");
        if (item.el !== null) this.list.touch(item);
      }
    }
  }

  closed() {
    // The server ended the stream without a RUN_FINISHED (the input broke off).
    if (!this.finished) this.finish("stopped", {}, null, "the stream ended before the run did");
    if (!this.scheduled) {
      this.scheduled = true; // one more frame to settle the footer and the state
      requestAnimationFrame(() => this.flush());
    }
  }
}

customElements.define("sb-run", Run);
