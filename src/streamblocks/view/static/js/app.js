// <sb-run>: reads the run from /events (AG-UI events over server-sent events) and folds
// them into rows. Events are queued as they arrive and applied once per animation frame,
// a few milliseconds at a time, so a 10 MB transcript keeps the page responsive while
// it fills; each touched row redraws once per frame, not once per event.

import { watchChunk } from "./code.js";
import { row } from "./rows.js";
import "./chrome.js";

const FRAME_BUDGET_MS = 12; // per animation frame, while the run streams at its own pace
const BACKLOG_BUDGET_MS = 40; // while a replay's backlog is worked off: fewer, fuller frames
const BACKLOG = 1000;
const CHUNK_ROWS = 100;
const NATIVE_ROWS = { command: "sb-command", file_change: "sb-file-change", code: "sb-code-block", todo: "sb-todo" };
const QUIET_TYPES = new Set([
  "STEP_STARTED", "STEP_FINISHED", "STATE_SNAPSHOT", "STATE_DELTA", "MESSAGES_SNAPSHOT",
  "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "TEXT_MESSAGE_CHUNK", "TOOL_CALL_CHUNK",
  "REASONING_ENCRYPTED_VALUE", "THINKING_START", "THINKING_END",
]);

class Run extends HTMLElement {
  connectedCallback() {
    this.list = this.querySelector(".sb-list");
    this.chunk = null;
    this.footer = document.querySelector("sb-footer");
    this.queue = [];
    this.head = 0;
    this.scheduled = false;
    this.dirty = new Set();
    this.rows = new Map(); // AG-UI message / tool call / block id -> row
    this.toolNames = new Map();
    this.lastResult = new Map();
    this.started = null;
    this.count = 0;
    this.finished = false;
    this.follow = false; // keep the newest row in view: only for a live run (see /info.json)
    this.marked = false;
    this.dataset.state = "connecting";
    fetch("/info.json")
      .then((response) => response.json())
      .then((info) => {
        this.follow = Boolean(info.live);
        document.querySelector("sb-title")?.show(info);
      })
      .catch(() => {});
    this.source = new EventSource("/events");
    this.source.onmessage = (message) => this.enqueue(message.data);
    this.source.onerror = () => {
      if (this.source.readyState === EventSource.CLOSED) this.closed();
    };
  }

  enqueue(data) {
    if (this.started === null && !this.queue.length) performance.mark("sb-first-event");
    this.queue.push(data);
    if (!this.scheduled) {
      this.scheduled = true;
      requestAnimationFrame(() => this.flush());
    }
  }

  flush() {
    this.scheduled = false;
    const follow = this.follow && this.atBottom();
    const queue = this.queue;
    const backlog = queue.length - this.head > BACKLOG;
    const deadline = performance.now() + (backlog ? BACKLOG_BUDGET_MS : FRAME_BUDGET_MS);
    while (this.head < queue.length) {
      this.handle(queue[this.head]);
      this.head += 1;
      if ((this.head & 63) === 0 && performance.now() > deadline) break;
    }
    if (this.head === queue.length) {
      this.queue = [];
      this.head = 0;
    }
    for (const item of this.dirty) item.render();
    this.dirty.clear();
    if (!this.marked && this.list.childElementCount) {
      this.marked = true;
      performance.mark("sb-first-row");
    }
    this.footer?.update(this);
    if (follow && this.dataset.state === "streaming") window.scrollTo(0, document.body.scrollHeight);
    if (this.queue.length) {
      this.scheduled = true;
      requestAnimationFrame(() => this.flush());
    } else if (this.finished) {
      this.dataset.state = this.dataset.state === "streaming" ? "done" : this.dataset.state;
      if (!document.body.dataset.rendered) {
        performance.mark("sb-rendered");
        document.body.dataset.rendered = "true";
        document.dispatchEvent(new Event("sb-rendered"));
      }
    }
  }

  atBottom() {
    return window.innerHeight + window.scrollY >= document.body.scrollHeight - 80;
  }

  // Rows go into chunks of CHUNK_ROWS: appending a row lays out its chunk, not the whole
  // list, and chunks out of view are skipped altogether (content-visibility).
  add(element, key = null) {
    if (this.chunk === null || this.chunk.childElementCount >= CHUNK_ROWS) {
      this.chunk = document.createElement("div");
      this.chunk.className = "sb-chunk";
      this.list.append(this.chunk);
      watchChunk(this.chunk);
    }
    this.chunk.append(element);
    if (key !== null) this.rows.set(key, element);
    return element;
  }

  warn(message) {
    this.add(row("sb-notice", "warning", message));
  }

  handle(data) {
    let event;
    try {
      event = JSON.parse(data);
    } catch {
      this.warn(`an event that is not JSON was skipped: ${data.slice(0, 80)}`);
      return;
    }
    this.count += 1;
    if (this.started === null) this.started = performance.now();
    if (this.dataset.state === "connecting") this.dataset.state = "streaming";
    try {
      this.apply(event);
    } catch (error) {
      this.warn(`could not show a ${event.type} event: ${error.message}`);
    }
  }

  touched(key) {
    const item = this.rows.get(key);
    if (item) this.dirty.add(item);
    return item;
  }

  end(key, payload) {
    const item = this.rows.get(key);
    if (!item) return;
    this.dirty.delete(item);
    item.end(payload);
  }

  apply(event) {
    const type = String(event.type);
    switch (type) {
      case "RUN_STARTED":
        this.started = performance.now();
        return;
      case "TEXT_MESSAGE_START":
        this.add(row("sb-text"), event.messageId);
        return;
      case "TEXT_MESSAGE_CONTENT":
        if (!this.rows.has(event.messageId)) this.add(row("sb-text"), event.messageId);
        this.touched(event.messageId).add(event.delta);
        return;
      case "TEXT_MESSAGE_END":
        this.end(event.messageId);
        return;
      case "REASONING_START":
      case "REASONING_MESSAGE_START":
      case "THINKING_TEXT_MESSAGE_START": {
        const key = `thinking:${event.messageId ?? "current"}`;
        if (!this.rows.has(key)) this.add(row("sb-thinking"), key);
        return;
      }
      case "REASONING_MESSAGE_CONTENT":
      case "THINKING_TEXT_MESSAGE_CONTENT": {
        const key = `thinking:${event.messageId ?? "current"}`;
        if (!this.rows.has(key)) this.add(row("sb-thinking"), key);
        this.touched(key).add(event.delta);
        return;
      }
      case "REASONING_MESSAGE_END":
      case "REASONING_END":
      case "THINKING_TEXT_MESSAGE_END":
        this.end(`thinking:${event.messageId ?? "current"}`);
        return;
      case "TOOL_CALL_START":
        this.toolNames.set(event.toolCallId, event.toolCallName);
        this.add(row("sb-tool-call", event.toolCallName, event.toolCallId), `tool:${event.toolCallId}`);
        return;
      case "TOOL_CALL_ARGS":
        this.touched(`tool:${event.toolCallId}`)?.add(event.delta);
        return;
      case "TOOL_CALL_END":
        this.end(`tool:${event.toolCallId}`);
        return;
      case "TOOL_CALL_RESULT": {
        const result = row("sb-tool-result", event.toolCallId, event.content, this.toolNames.get(event.toolCallId));
        this.lastResult.set(event.toolCallId, result);
        this.add(result);
        return;
      }
      case "CUSTOM":
        this.custom(String(event.name), event.value ?? {});
        return;
      case "RAW": {
        const raw = event.event ?? {};
        this.footer?.raw(raw);
        const kind = raw && typeof raw === "object" && raw.type ? String(raw.type) : "event";
        this.add(row("sb-notice", "raw", `${event.source ? `${event.source} ` : ""}${kind}`, raw));
        return;
      }
      case "RUN_FINISHED":
        this.footer?.finish(event.result ?? {}, null);
        this.finish();
        return;
      case "RUN_ERROR":
        this.footer?.finish({}, event.message ?? "the run failed");
        this.add(row("sb-notice", "warning", `The run failed: ${event.message ?? "unknown error"}`));
        this.finish();
        return;
      default:
        if (!QUIET_TYPES.has(type)) this.warn(`an unknown event was skipped: ${type.slice(0, 60)}`);
    }
  }

  custom(name, value) {
    if (name === "streamblocks.block_start") {
      const element = value.syntax === "native" && NATIVE_ROWS[value.block_type]
        ? row(NATIVE_ROWS[value.block_type], value.attrs ?? {})
        : row("sb-block", value);
      this.add(element, `block:${value.block_id}`);
    } else if (name === "streamblocks.block_metadata") {
      this.rows.get(`block:${value.block_id}`)?.metadata?.(value.metadata);
    } else if (name === "streamblocks.block_delta") {
      this.touched(`block:${value.block_id}`)?.add?.(value.text ?? "");
    } else if (name === "streamblocks.block_end") {
      const key = `block:${value.id}`;
      if (!this.rows.has(key)) this.custom("streamblocks.block_start", { block_id: value.id, block_type: value.type, syntax: value.syntax, attrs: value.attrs });
      this.end(key, { ...value, attrs: value.attrs ?? {} });
    } else if (name === "streamblocks.block_error") {
      const key = `block:${value.block_id}`;
      let element = this.rows.get(key);
      if (!element || !element.fail) {
        element = this.add(row("sb-block", { block_id: value.block_id, block_type: value.block_type ?? "block", syntax: "" }), key);
      }
      this.dirty.delete(element);
      element.fail(value);
    } else if (name === "streamblocks.view.warning") {
      this.warn(String(value.message ?? "warning"));
    } else if (name === "streamblocks.view.partial") {
      this.rows.get(`tool:${value.tool_call_id}`)?.partial?.(value.value);
    } else if (name === "streamblocks.view.tool_error") {
      this.lastResult.get(value.tool_call_id)?.error();
    } else {
      this.add(row("sb-notice", "raw", `custom event ${name}`, value));
    }
  }

  finish() {
    this.finished = true;
    this.elapsed = this.started === null ? 0 : performance.now() - this.started;
    this.source.close();
  }

  closed() {
    // The server ended the stream without a RUN_FINISHED (the input broke off).
    if (!this.finished) {
      this.finish();
      this.footer?.finish({}, null);
    }
    if (!this.scheduled) {
      this.scheduled = true; // one more frame to settle the footer and the state
      requestAnimationFrame(() => this.flush());
    }
  }
}

customElements.define("sb-run", Run);
