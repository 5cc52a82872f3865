// <sb-run>: the run as rows. Its events come from the server or the saved page
// (source.js), are queued as they arrive and applied once per animation frame; applying
// an event changes a row's model only (events.js: AG-UI events, custom.js: the project's
// own), and the frame then draws the few rows near the viewport (list.js). So a 50 MB run
// costs the page its models, not its elements. This module holds the element itself: its
// state, the frame loop, the rows it adds (and the turns they start), and the run's end.
//
// A sub-agent's rows are nested under the tool call that started it: AG-UI 1.0 events
// carry its `subagentRunId`, which its SUBAGENT_STARTED tied to that call
// (`parentToolCallId`); with an AG-UI SDK older than 1.0, a `streamblocks.view.parent`
// event naming the call comes before each of its rows instead.

import { CustomRows } from "./custom.js";
import { EventRows } from "./events.js";
import { Item, NONE, VirtualList } from "./list.js";
import { Outline } from "./outline.js";
import { NotEvents, Source } from "./source.js";
import "./chrome.js";

const FRAME_BUDGET_MS = 24; // events applied per animation frame, at most this long
const AFTER_TOOLS = new Set(["result", "command", "file", "code", "todo"]); // what tool results show
const TURN_STARTS = new Set(["text", "thinking", "tool"]);
const BEFORE_EVENTS = new Set(["connecting", "waiting", "disconnected"]); // states an event ends

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
    this.connect();
  }

  shown(info) {
    this.info = info;
    this.live = Boolean(info.live);
    this.list.sticky = this.live;
    this.heading?.show(info);
    this.state(this.current);
    document.querySelector("sb-toolbar")?.offer(info);
  }

  // connecting · waiting · streaming · finished · failed · stopped · disconnected
  state(name) {
    this.current = name;
    this.dataset.state = name;
    this.heading?.live(this.live && ["waiting", "streaming", "disconnected"].includes(name));
    this.footer?.update(this);
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

// (the methods of source.js, events.js and custom.js)
Object.assign(Run.prototype, Source, EventRows, CustomRows);

customElements.define("sb-run", Run);
