// What a long run is opened to find: its turns, tool calls (by name), errors and
// sub-agents, counted, each a jump away (<sb-outline>, a side panel), and a search over
// the whole run (<sb-search>, in the header) that jumps from match to match. Both read the
// row models (list.js), not the page: rows that are not drawn are found all the same.
// A tool call that started a sub-agent gets a bar with the sub-agent's own outline, which
// opens and closes its nested rows.

import { h, preview } from "./dom.js";
import { addUsage, usageBrief, usageFacts, usageLine, usageTitle } from "./usage.js";

const LIST_LIMIT = 300; // entries drawn per outline list; the ‹ › buttons reach the rest

function plural(count, word) {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

// The first item of `items` (in arrival order) after `seq`, or the last one before it.
function neighbour(items, seq, forward) {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (forward ? items[mid].seq <= seq : items[mid].seq < seq) low = mid + 1;
    else high = mid;
  }
  return forward ? items[low] ?? items[0] : items[low - 1] ?? items[items.length - 1];
}

function toolName(item) {
  return String(item.args[0] ?? "tool");
}

function describe(item) {
  if (item.kind === "tool") {
    const args = item.added() ?? "";
    let hint = "";
    try {
      const value = JSON.parse(args);
      hint = Object.values(value).find((v) => typeof v === "string") ?? "";
    } catch {
      hint = args;
    }
    return `${toolName(item)}${hint ? ` · ${preview(hint, 60)}` : ""}`;
  }
  const text = item.added();
  return text ? preview(text, 70) : item.kind;
}

export class Outline {
  constructor(run) {
    this.run = run;
    this.turns = [];
    this.tools = new Map(); // name -> tool-call items of the run itself
    this.calls = [];
    this.errors = [];
    this.agents = [];
    this.usage = null; // the sums of the turns' usage (usage.js), null when none is recorded
    this.metered = null; // the turn the last usage went to
    this.target = null;
    this.changed = true;
    this.panel = document.querySelector("sb-outline");
    this.panel?.attach(this);
    document.querySelector("sb-search")?.attach(this);
  }

  turn(item) {
    this.turns.push(item);
    item.turn = this.turns.length;
    this.changed = true;
  }

  added(item) {
    if (item.kind === "tool" && !item.parent) {
      const name = toolName(item);
      if (!this.tools.has(name)) this.tools.set(name, []);
      this.tools.get(name).push(item);
      this.calls.push(item);
      this.changed = true;
    }
    if (item.parent) {
      if (item.parent.children.length === 1) {
        this.agents.push(item.parent);
        this.changed = true;
      }
      for (let at = item.parent; at; at = at.parent) {
        at.agent ??= { rows: 0, tools: new Map(), errors: 0 };
        at.agent.rows += 1;
        if (item.kind === "tool") at.agent.tools.set(toolName(item), (at.agent.tools.get(toolName(item)) ?? 0) + 1);
        this.run.list.touch(at);
      }
    }
  }

  // A model turn's tokens and time: on the sub-agent of the call `value.parent_id` names,
  // else on the first turn since the last usage (a Codex turn's usage covers every turn
  // of its agent loop: "turns 1–3"), or with the last usage when no turn came since (two
  // model calls in one turn); summed for the footer.
  used(value) {
    this.usage = addUsage(this.usage, value);
    const call = typeof value.parent_id === "string" ? this.run.tools.get(value.parent_id) : undefined;
    if (call !== undefined) { // (and the sub-agents it is nested in: theirs include it)
      for (let at = call; at; at = at.parent) {
        at.agent ??= { rows: 0, tools: new Map(), errors: 0 };
        at.agent.usage = addUsage(at.agent.usage ?? null, value);
        this.run.list.touch(at);
      }
      return;
    }
    const last = this.metered; // the turn the last usage went to
    const covered = last === null ? 0 : last.span;
    const turn = this.turns.length > covered ? this.turns[covered] : last;
    if (turn === null || turn === undefined) return;
    turn.usage = addUsage(turn.usage, value);
    turn.span = this.turns.length;
    this.metered = turn;
    this.run.list.touch(turn);
    this.changed = true;
  }

  failed(item, label) {
    item.error = label;
    this.errors.push(item);
    this.changed = true;
    for (let at = item.parent; at; at = at.parent) {
      if (at.agent) at.agent.errors += 1;
      this.run.list.touch(at);
    }
  }

  // Parts of a drawn row that are not its content: the sub-agent bar, the jump target.
  decorate(item, el) {
    el.classList.toggle("sb-target", item === this.target);
    if (item.usage !== null) {
      el.querySelector(":scope > .sb-usage")?.remove();
      el.prepend(usageLine(item.usage, item.span > item.turn ? `turns ${item.turn}–${item.span}` : `turn ${item.turn}`));
    }
    if (!item.children) return;
    el.querySelector(":scope > .sb-agent")?.remove();
    const agent = item.agent ?? { rows: 0, tools: new Map(), errors: 0 };
    const tools = [...agent.tools].map(([name, count]) => `${name} ${count}`).join(", ");
    const facts = [plural(agent.rows, "row")];
    if (tools) facts.push(`tool calls: ${tools}`);
    if (agent.errors) facts.push(plural(agent.errors, "error"));
    if (agent.usage) facts.push(usageFacts(agent.usage).map((fact) => fact.join(" ")).join(" · "));
    const toggle = h("button", { class: "sb-agent-toggle", type: "button", "aria-label": item.expanded ? "Hide the sub-agent's rows" : "Show the sub-agent's rows" },
      item.expanded ? "▾ Sub-agent" : "▸ Sub-agent");
    toggle.setAttribute("aria-expanded", String(item.expanded));
    toggle.addEventListener("click", () => {
      item.expanded = !item.expanded;
      this.run.list.relist();
      this.run.list.touch(item);
    });
    el.append(h("div", { class: "sb-agent", "data-errors": agent.errors ? "true" : null },
      toggle, h("span", { class: "sb-agent-facts", text: facts.join(" · ") })));
  }

  update() {
    if (!this.changed) return;
    this.changed = false;
    this.panel?.render();
  }

  // The row at the top of the window, as an arrival position.
  here() {
    const list = this.run.list;
    const header = document.querySelector(".sb-header")?.offsetHeight ?? 0;
    const item = list.shown[list.index(list.toRun(window.scrollY - list.base()) + header + 16)];
    return item ? item.seq : -1;
  }

  step(items, forward) {
    if (!items.length) return;
    const here = this.target && this.target.el ? this.target.seq : this.here();
    this.jump(neighbour(items, here, forward));
  }

  jump(item) {
    if (!item) return;
    document.querySelector("sb-toolbar")?.show(item.kind);
    for (let at = item.parent; at; at = at.parent) document.querySelector("sb-toolbar")?.show(at.kind);
    const previous = this.target;
    this.target = item;
    if (previous) this.run.list.touch(previous);
    this.run.list.touch(item);
    this.run.list.jump(item);
  }
}

class OutlinePanel extends HTMLElement {
  attach(outline) {
    this.outline = outline;
    this.body = h("div", { class: "sb-outline-body" });
    const close = h("button", { class: "sb-close", type: "button", title: "Hide the outline" }, "×");
    close.addEventListener("click", () => this.toggle(false));
    this.replaceChildren(h("div", { class: "sb-outline-head" }, h("strong", { text: "Outline" }), close), this.body);
    this.lists = new Map(); // section -> open <details>
    const edges = new ResizeObserver(() => this.fit());
    for (const edge of [document.querySelector(".sb-header"), document.querySelector("sb-footer")]) {
      if (edge) edges.observe(edge);
    }
    this.toggle(window.innerWidth >= 1400);
  }

  // The panel sits between the header and the footer, whose heights change as they wrap
  // (a narrow window, the panel itself narrowing the header, the footer's facts at the end).
  fit() {
    this.style.top = `${document.querySelector(".sb-header")?.offsetHeight ?? 0}px`;
    this.style.bottom = `${document.querySelector("sb-footer")?.offsetHeight ?? 0}px`;
  }

  toggle(open = !this.classList.contains("sb-open")) {
    this.classList.toggle("sb-open", open);
    document.body.classList.toggle("sb-with-outline", open);
    this.fit();
    document.querySelector("sb-toolbar .sb-outline-button")?.setAttribute("aria-pressed", String(open));
    if (open) this.render();
  }

  nav(items, label) {
    const outline = this.outline;
    const prev = h("button", { class: "sb-step", type: "button", title: `previous ${label}`, "aria-label": `previous ${label}` }, "‹");
    const next = h("button", { class: "sb-step", type: "button", title: `next ${label}`, "aria-label": `next ${label}` }, "›");
    prev.addEventListener("click", () => outline.step(items, false));
    next.addEventListener("click", () => outline.step(items, true));
    return h("span", { class: "sb-steps" }, prev, next);
  }

  entries(name, items, label) {
    const details = h("details", { class: "sb-entries", "data-section": name, open: this.lists.get(name) ?? false });
    details.addEventListener("toggle", () => this.lists.set(name, details.open));
    const summary = h("summary", {}, h("span", { text: label }));
    details.append(summary);
    const fill = () => {
      if (!details.open || details.childElementCount > 1) return;
      const list = h("ol", { class: "sb-entry-list" });
      for (const item of items.slice(0, LIST_LIMIT)) {
        const entry = h("button", { class: "sb-entry", type: "button", "data-kind": item.kind },
          h("span", { class: "sb-entry-text", text: item.error ?? describe(item) }),
          item.usage ? h("span", { class: "sb-entry-usage", text: usageBrief(item.usage), title: usageTitle(item.usage) }) : null);
        entry.addEventListener("click", () => this.outline.jump(item));
        list.append(h("li", {}, entry));
      }
      if (items.length > LIST_LIMIT) list.append(h("li", { class: "sb-more", text: `… ${plural(items.length - LIST_LIMIT, "more")}: use ‹ ›` }));
      details.append(list);
    };
    details.addEventListener("toggle", fill);
    fill();
    return details;
  }

  section(name, title, items, word, extra = []) {
    return h("section", { class: "sb-section", "data-section": name, "data-count": String(items.length) },
      h("div", { class: "sb-section-head" },
        h("span", { class: "sb-section-title", text: title }),
        h("span", { class: "sb-count", text: items.length.toLocaleString("en-US") }),
        items.length ? this.nav(items, word) : null),
      ...extra);
  }

  render() {
    if (!this.outline || !this.classList.contains("sb-open")) return;
    const o = this.outline;
    const tools = [...o.tools].sort((a, b) => b[1].length - a[1].length).map(([name, items]) =>
      h("div", { class: "sb-tool-line", "data-tool": name },
        h("span", { class: "sb-tool-name", text: name }),
        h("span", { class: "sb-count", text: items.length.toLocaleString("en-US") }),
        this.nav(items, `${name} call`)));
    this.body.replaceChildren(
      this.section("turns", "Turns", o.turns, "turn", o.turns.length ? [this.entries("turns", o.turns, "list")] : []),
      this.section("tools", "Tool calls", o.calls, "tool call", tools),
      this.section("errors", "Errors", o.errors, "error", o.errors.length ? [this.entries("errors", o.errors, "list")] : []),
      this.section("agents", "Sub-agents", o.agents, "sub-agent", o.agents.length ? [this.entries("agents", o.agents, "list")] : []),
    );
  }
}

// The search box: every row's text, drawn or not; Enter jumps to the next match.
class Search extends HTMLElement {
  attach(outline) {
    this.outline = outline;
    this.input = h("input", { class: "sb-search-input", type: "search", "aria-label": "Search the run", title: "Search the whole run (Ctrl-F); Enter: next, Shift-Enter: previous" });
    this.input.placeholder = "Search the run";
    this.counter = h("span", { class: "sb-search-count" });
    const prev = h("button", { class: "sb-step", type: "button", "aria-label": "previous match" }, "‹");
    const next = h("button", { class: "sb-step", type: "button", "aria-label": "next match" }, "›");
    prev.addEventListener("click", () => this.go(false));
    next.addEventListener("click", () => this.go(true));
    this.replaceChildren(this.input, this.counter, prev, next);
    this.query = "";
    this.matches = [];
    this.at = -1;
    this.seen = 0; // rows searched
    let timer = null;
    this.input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.find(), 200);
    });
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.find();
        this.go(!event.shiftKey);
      } else if (event.key === "Escape") {
        this.input.value = "";
        this.find();
      }
    });
    document.addEventListener("keydown", (event) => {
      if ((event.ctrlKey || event.metaKey) && event.key === "f") {
        event.preventDefault(); // find-in-page sees only the drawn rows; this box sees all
        this.input.focus();
        this.input.select();
      }
    });
  }

  pattern() {
    return this.query ? new RegExp(this.query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i") : null;
  }

  // The matching rows, brought up to date with the rows that arrived since.
  find() {
    const query = this.input.value.trim();
    const items = this.outline.run.list.items;
    if (query !== this.query) {
      this.query = query;
      this.matches = [];
      this.at = -1;
      this.seen = 0;
    }
    const re = this.pattern();
    if (re) {
      for (let i = this.seen; i < items.length; i += 1) if (re.test(items[i].text())) this.matches.push(items[i]);
      this.seen = this.outline.run.finished ? items.length : Math.max(0, items.length - 1); // the last may grow
      this.matches = [...new Set(this.matches)].sort((a, b) => a.seq - b.seq);
    }
    this.show();
  }

  show() {
    this.counter.textContent = !this.query ? "" : this.matches.length ? `${this.at + 1 || "–"} of ${this.matches.length.toLocaleString("en-US")}` : "no match";
    this.dataset.found = String(this.matches.length > 0);
  }

  go(forward) {
    if (!this.matches.length) return;
    if (this.at < 0) {
      const here = this.outline.here();
      const next = forward ? this.matches.findIndex((item) => item.seq >= here) : this.matches.findLastIndex((item) => item.seq <= here);
      this.at = next >= 0 ? next : forward ? 0 : this.matches.length - 1;
    } else this.at = (this.at + (forward ? 1 : -1) + this.matches.length) % this.matches.length;
    const item = this.matches[this.at];
    this.show();
    this.outline.jump(item);
    this.mark(item);
  }

  // Highlight the matches in the row once it is drawn (CSS Custom Highlight API).
  mark(item) {
    const re = this.pattern();
    if (!re || !window.CSS?.highlights || typeof Highlight === "undefined") return;
    const paint = () => {
      if (!item.el) {
        requestAnimationFrame(paint);
        return;
      }
      const global = new RegExp(re.source, "gi");
      const ranges = [];
      const walker = document.createTreeWalker(item.el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of node.data.matchAll(global)) {
          const range = new Range();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          ranges.push(range);
          for (let at = node.parentElement; at && at !== item.el; at = at.parentElement) {
            if (at.tagName === "DETAILS" && !at.open) at.open = true;
          }
        }
      }
      CSS.highlights.set("sb-search", new Highlight(...ranges));
    };
    requestAnimationFrame(paint);
  }
}

customElements.define("sb-outline", OutlinePanel);
customElements.define("sb-search", Search);
