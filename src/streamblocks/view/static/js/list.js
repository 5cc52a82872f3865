// The run's rows as a virtual list: every row is a small model (an Item) and only the rows
// near the viewport have elements. An Item records what was done to its row (`add`,
// `metadata`, `end`, `fail`, `error`) and replays that onto a fresh element when the row
// scrolls into view; its element is dropped when it scrolls out. Heights are measured as
// rows are drawn (estimated until then), and the row at the top of the window stays put
// when rows above it change height. Toggles and a collapsed sub-agent change which rows
// are listed (`shown`), a walk over plain objects: no element is touched but the visible.

import { h } from "./dom.js";
import { row } from "./rows.js";

const KIND_OF = {
  "sb-text": "text", "sb-thinking": "thinking", "sb-tool-call": "tool", "sb-tool-result": "result",
  "sb-command": "command", "sb-file-change": "file", "sb-code-block": "code", "sb-todo": "todo",
  "sb-block": "block",
};
const ESTIMATE = { text: 90, thinking: 36, tool: 46, result: 44, command: 90, file: 46, code: 220, todo: 110, block: 110, warning: 46, raw: 28 };
const TEXT_PX_PER_CHAR = 0.15; // the height of markdown text per character, roughly
const GAP = 10; // the margin below each row (viewer.css: .sb-row)
const OVERSCAN = 900; // pixels drawn above and below the window
// The list's height is at most this: a browser lays out no element taller than about
// 33.5 million pixels (Chrome), which a 50 MB run of short rows passes. A taller run is
// drawn on a list scaled down to this height: the scroll position is mapped onto the run,
// and the rows near it are drawn at their own size.
const TALLEST = 16_000_000;
export const FILTER_OF = { todo: "block" }; // a plan is hidden with the custom blocks

// Strings of a value, for search: text and scalar values, not the keys of objects.
function strings(value, into) {
  if (typeof value === "string") into.push(value);
  else if (typeof value === "number") into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value && typeof value === "object") for (const item of Object.values(value)) strings(item, into);
  return into;
}

export const NONE = Object.freeze([]); // the arguments of a row made with none

// A row's model. A 50 MB run has about half a million, so a row is kept small: what most
// rows never set (a parent, sub-agent rows, open sections, an error) is on the prototype,
// and what was done to the row is one flat array, `method, argument, method, argument…`
// (every row method takes at most one argument).
export class Item {
  constructor(tag, args = NONE) {
    this.tag = tag;
    this.args = args;
    this.kind = tag === "sb-notice" ? args[0] : KIND_OF[tag];
    this.ops = null; // replayed onto a new element
    this.el = null;
    this.height = 0; // measured, with the gap below; 0 until drawn
    this.seq = 0; // arrival order
    this.at = -1; // the position in `shown`
  }

  // Record `method(arg)` and apply it to the element, if the row is drawn. Text added
  // joins the text added before it, past a partial value (a tool call's arguments
  // so far, `partial`, only shows them until its end); a newer partial value replaces
  // the older one, and the end drops it. So a tool call streamed in a thousand pieces
  // keeps one record of its arguments, not a thousand partial values.
  do(method, arg) {
    const ops = this.ops;
    if (ops === null) this.ops = [method, arg];
    else {
      const n = ops.length;
      const partial = ops[n - 2] === "partial";
      if (method === "add" && ops[n - 2] === "add") ops[n - 1] += arg;
      else if (method === "add" && partial && ops[n - 4] === "add") ops[n - 3] += arg;
      else if (method === "partial" && partial) ops[n - 1] = arg;
      else if (method === "end" && partial) {
        ops[n - 2] = method;
        ops[n - 1] = arg;
      } else ops.push(method, arg);
    }
    if (this.el !== null) this.el[method]?.(arg);
  }

  // Whether the row was ended (or failed).
  ended() {
    const ops = this.ops;
    if (ops !== null) for (let i = 0; i < ops.length; i += 2) if (ops[i] === "end" || ops[i] === "fail") return true;
    return false;
  }

  // The first text added, or undefined.
  added() {
    const ops = this.ops;
    if (ops !== null) for (let i = 0; i < ops.length; i += 2) if (ops[i] === "add") return ops[i + 1];
    return undefined;
  }

  build() {
    const el = row(this.tag, ...this.args);
    const ops = this.ops;
    if (ops !== null) for (let i = 0; i < ops.length; i += 2) el[ops[i]]?.(ops[i + 1]);
    el.render();
    if (this.open) {
      const all = el.querySelectorAll("details");
      for (const [index, open] of Object.entries(this.open)) if (all[index]) all[index].open = open;
    }
    el.item = this;
    if (this.depth) el.dataset.depth = String(Math.min(this.depth, 4));
    return el;
  }

  // What search looks through: the row's arguments and records, and a tool call's
  // arguments parsed, so that their strings are matched as written, not escaped as JSON.
  text() {
    const into = strings(this.args, []);
    const ops = this.ops;
    if (ops !== null) for (let i = 1; i < ops.length; i += 2) strings(ops[i], into);
    if (this.kind === "tool") {
      try {
        strings(JSON.parse(this.added() ?? ""), into);
      } catch {
        // arguments that are not (yet) JSON: searched as their text
      }
    }
    return into.join("\n");
  }
}
Object.assign(Item.prototype, {
  parent: null,
  children: null, // the rows of the sub-agent this tool call started
  expanded: false,
  depth: 0,
  open: null, // the reader's open/closed <details>, by position
  error: null, // what went wrong, for the outline
  agent: null, // the sub-agent's outline (outline.js)
  turn: 0, // the number of the turn this row starts (outline.js)
  usage: null, // that turn's tokens and time (usage.js)
  span: 0, // the last turn that usage covers (a Codex turn's covers its agent loop's)
});

export class VirtualList {
  constructor(list, { decorate = null, hidden = new Set() } = {}) {
    this.list = list;
    this.slab = h("div", { class: "sb-slab" });
    list.append(this.slab);
    this.decorate = decorate; // (item, element): extra parts of a drawn row
    this.hidden = hidden;
    this.items = []; // every row, in arrival order
    this.top = []; // the rows not nested in a sub-agent
    this.shown = []; // the rows listed now, in order
    this.offsets = new Float64Array(1024); // offsets[i]: the top of shown[i]
    this.tallest = TALLEST;
    this.stretch = 1; // run pixels per list pixel scrolled (1 unless the run is too tall)
    this.from = 0; // offsets are valid up to shown[from]
    this.restructure = false; // shown must be listed again
    this.drawn = [];
    this.dirty = new Set(); // drawn rows that changed since the last frame
    this.sticky = false; // keep the end in view (a live run; after the reader went to the end)
    this.intent = -Infinity; // when the reader last scrolled (wheel, keys, touch, scrollbar)
    this.pin = null; // a row being jumped to, kept at the top while its neighbours settle
    this.pinFrames = 0;
    this.resize = new ResizeObserver(() => this.remeasure());
    this.measure = true; // a drawn row may have changed height since it was last measured
    this.onPaint = null;
    this.scheduled = false;
    this.wanted = false;
    // Reaching the end sticks to it; the reader scrolling up (wheel, keys, scrollbar) lets go.
    window.addEventListener("scroll", () => {
      if (window.scrollY > 0 && this.atEnd()) this.sticky = true;
      else if (performance.now() - this.intent < 600) this.sticky = false;
      this.request();
    }, { passive: true });
    const intent = () => { this.intent = performance.now(); };
    window.addEventListener("wheel", (event) => { if (event.deltaY < 0) intent(); }, { passive: true });
    window.addEventListener("touchstart", intent, { passive: true });
    window.addEventListener("mousedown", intent, { passive: true });
    window.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLInputElement) return;
      if (event.key === "End") {
        this.sticky = true;
        this.intent = -Infinity;
        this.request();
      } else if (["ArrowUp", "PageUp", "Home", " "].includes(event.key)) intent();
    });
    window.addEventListener("resize", () => this.remeasure());
    // <details> keep their state when their row is drawn again
    list.addEventListener("toggle", (event) => {
      const details = event.target;
      const el = details.closest?.(".sb-row");
      if (!el || !el.item) return;
      const index = [...el.querySelectorAll("details")].indexOf(details);
      if (index < 0) return;
      el.item.open ??= {};
      el.item.open[index] = details.open;
    }, true);
  }

  passes(item) {
    return !this.hidden.has(FILTER_OF[item.kind] ?? item.kind);
  }

  add(item, parent = null) {
    item.seq = this.items.length;
    this.items.push(item);
    if (parent) {
      item.parent = parent;
      item.depth = parent.depth + 1;
      (parent.children ??= []).push(item);
      if (this.listed(parent) && parent.expanded) this.restructure = true;
      this.touch(parent);
    } else {
      this.top.push(item);
      if (!this.restructure && this.passes(item)) {
        item.at = this.shown.length;
        this.shown.push(item);
      }
    }
    return item;
  }

  // Whether `item` is listed: its kind is shown, and so are its sub-agent's ancestors.
  listed(item) {
    for (let at = item; at; at = at.parent) {
      if (!this.passes(at) || (at !== item && !at.expanded)) return false;
    }
    return true;
  }

  touch(item) {
    if (item.el) this.dirty.add(item);
    this.request();
  }

  relist() {
    this.restructure = true;
    this.request();
  }

  remeasure() {
    this.measure = true;
    this.request();
  }

  // A paint in the next frame, unless the run paints the list in that frame itself.
  request() {
    this.wanted = true;
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      if (this.wanted) this.paint();
    });
  }

  listAll() {
    const shown = [];
    const walk = (items) => {
      for (const item of items) {
        if (!this.passes(item)) continue;
        item.at = shown.length;
        shown.push(item);
        if (item.children && item.expanded) walk(item.children);
      }
    };
    walk(this.top);
    this.shown = shown;
    this.from = 0;
    this.restructure = false;
  }

  // A row's measured height, or an estimate for its kind until it is drawn; a text
  // row's from its text (a long message's pieces are 4 KB each: pieces.js).
  height(item) {
    if (item.height) return item.height;
    const ops = item.ops;
    if (item.kind === "text" && ops !== null && ops[0] === "add") {
      return Math.max(ESTIMATE.text, ops[1].length * TEXT_PX_PER_CHAR);
    }
    return ESTIMATE[item.kind] || 60;
  }

  layout() {
    const shown = this.shown;
    const n = shown.length;
    if (this.offsets.length < n + 1) {
      const grown = new Float64Array(Math.max(n + 1, this.offsets.length * 2));
      grown.set(this.offsets.subarray(0, this.from + 1));
      this.offsets = grown;
    }
    const offsets = this.offsets;
    for (let i = this.from; i < n; i += 1) offsets[i + 1] = offsets[i] + this.height(shown[i]);
    this.from = n;
    const run = offsets[n];
    const tall = run > this.tallest ? this.tallest : run;
    const view = window.innerHeight;
    this.stretch = tall < run && tall > view ? (run - view) / (tall - view) : 1;
    const total = `${tall}px`;
    if (this.list.style.height !== total) this.list.style.height = total;
  }

  // Run pixels from list pixels (how far the window's top is into the list), and back.
  toRun(y) {
    return y > 0 ? y * this.stretch : y;
  }

  toList(y) {
    return y > 0 ? y / this.stretch : y;
  }

  // The index of the first row whose bottom is below `y` (list coordinates).
  index(y) {
    let low = 0;
    let high = this.shown.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.offsets[mid + 1] <= y) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  base() {
    return this.list.getBoundingClientRect().top + window.scrollY;
  }

  atEnd() {
    return window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
  }

  toEnd() {
    const end = document.documentElement.scrollHeight - window.innerHeight;
    if (window.scrollY < end) window.scrollTo(0, end);
  }

  paint() {
    this.wanted = false;
    // Where the list starts, read before this frame changes the page: after a change,
    // reading it would lay the page out once more (nothing here moves the list's top).
    const base = this.base();
    if (this.restructure) this.listAll();
    // every row there is hidden by the toggles: say so, rather than show a blank page
    this.list.classList.toggle("sb-all-hidden", this.shown.length === 0 && this.top.length > 0);
    this.layout();
    // At the end (following a live run, or after End): stay there while rows are measured.
    const stick = !this.pin && this.sticky;
    for (let round = 0; round < 4; round += 1) {
      if (this.pin) this.scrollToItem(this.pin);
      else if (stick) this.toEnd();
      if (!this.draw(base, stick)) break;
    }
    if (stick) this.toEnd();
    if (this.pin) {
      this.pinFrames -= 1;
      if (this.pinFrames <= 0) this.pin = null;
      else this.request();
    }
    for (const item of this.dirty) {
      if (!item.el) continue;
      item.el.render();
      this.decorate?.(item, item.el);
    }
    this.dirty.clear();
    this.onPaint?.();
  }

  // Draw the rows in and near the window; measure them. True when a height changed
  // (the range must be computed again).
  draw(base, stick = false) {
    const scrolled = window.scrollY - base;
    const top = this.toRun(scrolled);
    const n = this.shown.length;
    const first = Math.min(this.index(top - OVERSCAN), n);
    let last = first;
    const bottom = top + window.innerHeight + OVERSCAN;
    while (last < n && this.offsets[last] < bottom) last += 1;
    const want = this.shown.slice(first, last);
    const keep = new Set(want);
    for (const item of this.drawn) {
      if (!keep.has(item) && item.el) {
        this.resize.unobserve(item.el);
        item.el.remove();
        item.el = null;
      }
    }
    let same = want.length === this.drawn.length;
    for (let i = 0; i < want.length; i += 1) {
      const item = want[i];
      if (!item.el) {
        item.el = item.build();
        this.decorate?.(item, item.el);
        this.resize.observe(item.el);
        same = false;
        this.measure = true;
      } else if (same && this.drawn[i] !== item) same = false;
    }
    if (!same) this.slab.replaceChildren(...want.map((item) => item.el));
    this.drawn = want;
    const shift = `translateY(${n ? scrolled - top + this.offsets[first] : 0}px)`;
    if (this.slab.style.transform !== shift) this.slab.style.transform = shift;
    // measure (when a row was drawn or resized since); keep the first row in the window where it is
    if (!this.measure) return false;
    let anchor = -1;
    for (let i = first; i < last; i += 1) {
      if (this.offsets[i + 1] > top) {
        anchor = i;
        break;
      }
    }
    const before = anchor >= 0 ? this.offsets[anchor] : 0;
    let changed = -1;
    for (let i = 0; i < want.length; i += 1) {
      const item = want[i];
      const height = item.el.offsetHeight + GAP;
      if (height !== item.height) {
        item.height = height;
        if (changed < 0) changed = first + i;
      }
    }
    if (changed < 0) {
      this.measure = false;
      return false;
    }
    this.from = Math.min(this.from, changed);
    this.layout();
    if (anchor >= 0 && !stick && window.scrollY > 0 && changed < anchor) {
      window.scrollBy(0, (this.offsets[anchor] - before) / this.stretch);
    }
    return true;
  }

  // Bring `item` to the top of the window (its sub-agent opened, its kind shown by the caller).
  jump(item) {
    for (let at = item.parent; at; at = at.parent) {
      if (!at.expanded) {
        at.expanded = true;
        this.restructure = true;
        this.touch(at);
      }
    }
    this.sticky = false;
    this.pin = item;
    this.pinFrames = 3;
    this.request();
  }

  scrollToItem(item) {
    if (this.shown[item.at] !== item) return;
    const header = document.querySelector(".sb-header")?.offsetHeight ?? 0;
    window.scrollTo(0, this.base() + this.toList(this.offsets[item.at] - header - 12));
  }
}
