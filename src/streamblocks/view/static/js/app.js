// <sb-run>: reads the run from /events?batch (AG-UI events over server-sent events, each
// message a JSON array of the events the server had ready: one message and one parse per
// thousands of events) and folds them into rows. Events are queued as they arrive and
// applied once per animation frame;
// applying an event changes a row's model only (list.js), and the frame then draws the
// few rows near the viewport. So a 50 MB run costs the page its models, not its elements.
//
// A sub-agent's rows arrive after a `streamblocks.view.parent` event naming the tool call
// that started it (its blocks carry `attrs.parent_id`); they are nested under that call.

import { Item, VirtualList } from "./list.js";
import { Outline } from "./outline.js";
import "./chrome.js";

const FRAME_BUDGET_MS = 24; // events applied per animation frame, at most this long
const NATIVE_ROWS = { command: "sb-command", file_change: "sb-file-change", code: "sb-code-block", todo: "sb-todo" };
const QUIET_TYPES = new Set([
  "STEP_STARTED", "STEP_FINISHED", "STATE_SNAPSHOT", "STATE_DELTA", "MESSAGES_SNAPSHOT",
  "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "TEXT_MESSAGE_CHUNK", "TOOL_CALL_CHUNK",
  "REASONING_ENCRYPTED_VALUE", "THINKING_START", "THINKING_END",
]);
const AFTER_TOOLS = new Set(["result", "command", "file", "code", "todo"]); // what tool results show

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
    this.rows = new Map(); // AG-UI message / tool call / block id -> Item
    this.toolNames = new Map();
    this.lastResult = new Map();
    this.parentOf = null; // the tool call id the next row nests under
    this.lastTop = null; // the kind of the last row not in a sub-agent (for turns)
    this.started = null;
    this.count = 0;
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
    fetch("/info.json")
      .then((response) => response.json())
      .then((info) => {
        this.live = Boolean(info.live);
        this.list.sticky = this.live;
        this.heading?.show(info);
        this.state(this.dataset.state);
      })
      .catch(() => {});
    this.source = new EventSource("/events?batch");
    this.source.onopen = () => {
      if (this.dataset.state === "connecting") this.state("waiting");
    };
    this.source.onmessage = (message) => this.enqueue(message.data);
    this.source.onerror = () => {
      if (this.source.readyState === EventSource.CLOSED) this.closed();
      else if (!this.finished) this.state("disconnected");
    };
  }

  // connecting · waiting · streaming · finished · failed · stopped · disconnected
  state(name) {
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
      const data = this.queue.shift();
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
      if ((applied & 255) === 0 && performance.now() > deadline) break;
    }
    this.list.paint();
    this.outline.update();
    this.footer?.update(this);
    if (this.queue.length || this.head < this.events.length) {
      this.scheduled = true;
      requestAnimationFrame(() => this.flush());
    } else if (this.finished && !document.body.dataset.rendered) {
      performance.mark("sb-rendered");
      document.body.dataset.rendered = "true";
      document.dispatchEvent(new Event("sb-rendered"));
    }
  }

  // A new row: nested under the tool call a `streamblocks.view.parent` event named.
  add(tag, args, key = null) {
    const item = new Item(tag, args);
    const parent = this.parentOf === null ? null : this.rows.get(`tool:${this.parentOf}`) ?? null;
    this.parentOf = null;
    this.list.add(item, parent);
    if (key !== null) this.rows.set(key, item);
    if (!parent) {
      if (["text", "thinking", "tool"].includes(item.kind) && (this.lastTop === null || AFTER_TOOLS.has(this.lastTop))) {
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
    if (this.started === null) this.started = performance.now();
    if (["connecting", "waiting", "disconnected"].includes(this.dataset.state) && !this.finished) this.state("streaming");
    try {
      this.apply(event);
    } catch (error) {
      this.warn(`could not show a ${event.type} event: ${error.message}`);
    }
  }

  do(key, method, ...args) {
    const item = this.rows.get(key);
    if (!item) return null;
    item.do(method, ...args);
    if (item.el) this.list.touch(item);
    return item;
  }

  apply(event) {
    const type = String(event.type);
    switch (type) {
      case "RUN_STARTED":
        return;
      case "TEXT_MESSAGE_START":
        this.add("sb-text", [], event.messageId);
        return;
      case "TEXT_MESSAGE_CONTENT":
        if (!this.rows.has(event.messageId)) this.add("sb-text", [], event.messageId);
        this.do(event.messageId, "add", event.delta);
        return;
      case "TEXT_MESSAGE_END":
        this.do(event.messageId, "end");
        return;
      case "REASONING_START":
      case "REASONING_MESSAGE_START":
      case "THINKING_TEXT_MESSAGE_START": {
        const key = `thinking:${event.messageId ?? "current"}`;
        if (!this.rows.has(key)) this.add("sb-thinking", [], key);
        return;
      }
      case "REASONING_MESSAGE_CONTENT":
      case "THINKING_TEXT_MESSAGE_CONTENT": {
        const key = `thinking:${event.messageId ?? "current"}`;
        if (!this.rows.has(key)) this.add("sb-thinking", [], key);
        this.do(key, "add", event.delta);
        return;
      }
      case "REASONING_MESSAGE_END":
      case "REASONING_END":
      case "THINKING_TEXT_MESSAGE_END":
        this.do(`thinking:${event.messageId ?? "current"}`, "end");
        return;
      case "TOOL_CALL_START":
        this.toolNames.set(event.toolCallId, event.toolCallName);
        this.add("sb-tool-call", [event.toolCallName, event.toolCallId], `tool:${event.toolCallId}`);
        return;
      case "TOOL_CALL_ARGS":
        this.do(`tool:${event.toolCallId}`, "add", event.delta);
        return;
      case "TOOL_CALL_END":
        this.do(`tool:${event.toolCallId}`, "end");
        return;
      case "TOOL_CALL_RESULT": {
        const result = this.add("sb-tool-result", [event.toolCallId, event.content, this.toolNames.get(event.toolCallId)]);
        this.lastResult.set(event.toolCallId, result);
        return;
      }
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
      if (value.syntax === "native" && value.block_type === "text") {
        this.add("sb-text", [], `block:${value.block_id}`); // a sub-agent's text
        return;
      }
      const native = value.syntax === "native" && NATIVE_ROWS[value.block_type];
      this.add(native || "sb-block", [native ? value.attrs ?? {} : value], `block:${value.block_id}`);
    } else if (name === "streamblocks.block_metadata") {
      this.do(`block:${value.block_id}`, "metadata", value.metadata);
    } else if (name === "streamblocks.block_delta") {
      this.do(`block:${value.block_id}`, "add", value.text ?? "");
    } else if (name === "streamblocks.block_end") {
      const key = `block:${value.id}`;
      if (!this.rows.has(key)) this.custom("streamblocks.block_start", { block_id: value.id, block_type: value.type, syntax: value.syntax, attrs: value.attrs });
      const item = this.rows.get(key);
      if (item.tag === "sb-text") {
        if (typeof value.content === "string" && !item.ops.length) item.do("add", value.content);
        this.do(key, "end");
        return;
      }
      this.do(key, "end", { ...value, attrs: value.attrs ?? {} });
      const attrs = value.attrs ?? {};
      if (item.tag === "sb-command" && ((typeof attrs.exit_code === "number" && attrs.exit_code !== 0) || /fail|error/.test(String(attrs.status ?? "")))) {
        this.outline.failed(item, `command failed: ${String(attrs.command ?? "").slice(0, 60)}`);
      }
    } else if (name === "streamblocks.block_error") {
      const key = `block:${value.block_id}`;
      let item = this.rows.get(key);
      if (!item || item.tag !== "sb-block") {
        item = this.add("sb-block", [{ block_id: value.block_id, block_type: value.block_type ?? "block", syntax: "" }], key);
      }
      this.do(key, "fail", value);
      this.outline.failed(item, `${value.code ?? "error"}: ${value.message ?? ""}`);
    } else if (name === "streamblocks.view.parent") {
      this.parentOf = value.parent_id ?? null;
    } else if (name === "streamblocks.view.warning") {
      this.warn(String(value.message ?? "warning"));
    } else if (name === "streamblocks.view.stopped") {
      const reason = String(value.reason ?? "the input ended before the run did");
      this.add("sb-notice", ["warning", `Stopped: ${reason}`]);
      this.finish("stopped", {}, null, reason);
    } else if (name === "streamblocks.view.partial") {
      this.do(`tool:${value.tool_call_id}`, "partial", value.value);
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
    this.finished = true;
    this.elapsed = this.started === null ? 0 : performance.now() - this.started;
    this.source.close();
    this.state(state);
    this.footer?.finish(this, result, error, reason);
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
