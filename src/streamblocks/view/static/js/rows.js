// The rows of a run, one custom element per kind of content. Each row takes text as it
// streams (`add`), redraws at most once per animation frame (`render`, called by the run
// for the rows it touched) and is completed by `end`. Rows carry `data-kind`, which the
// toolbar's toggles hide and show.

import { codeElement, codePanel, copyButton, languageOf } from "./code.js";
import { h, lazy, lineCount, link, preview, pretty } from "./dom.js";
import { Markdown } from "./markdown.js";

const COLLAPSE_LINES = 10;
const ICONS = { tool: "⚙", result: "↳", command: "$", thinking: "✻", block: "◆", warning: "⚠" };

class Row extends HTMLElement {
  setup(kind) {
    this.dataset.kind = kind;
    this.classList.add("sb-row");
    return this;
  }

  render() {}

  // The run stopped before this row ended: what it holds stays, marked as unfinished
  // rather than looking as if it still streamed.
  cut() {
    this.render();
    this.dataset.state = "cut";
    this.append(h("div", { class: "sb-cut", text: "Not finished when the run stopped" }));
  }

  // The block was rejected (a native block over a size limit): the row says what was
  // dropped rather than looking complete.
  fail(error) {
    this.render();
    this.dataset.state = "invalid";
    this.classList.add("sb-failed");
    this.append(h("div", { class: "sb-block-error" },
      h("strong", { text: `${error.code ?? "error"}: ` }), String(error.message ?? "")));
  }
}

export class TextRow extends Row {
  init() {
    this.setup("text");
    this.markdown = new Markdown(this);
    return this;
  }

  add(text) {
    this.markdown.add(text);
  }

  render() {
    this.markdown.render(false);
  }

  end() {
    this.markdown.render(true);
  }
}

export class ThinkingRow extends Row {
  init() {
    this.setup("thinking");
    this.parts = [];
    this.label = h("span", { class: "sb-label", text: "Thinking…" });
    this.body = h("div", { class: "sb-thinking-body" });
    this.details = h("details", {}, h("summary", {}, h("span", { class: "sb-icon", text: ICONS.thinking }), this.label), this.body);
    this.append(this.details);
    this.dataset.state = "streaming";
    return this;
  }

  add(text) {
    this.parts.push(text);
  }

  render() {
    if (!this.parts.length) return;
    this.body.append(this.parts.join(""));
    this.parts = [];
  }

  end() {
    this.render();
    this.dataset.state = "done";
    const words = this.body.textContent.trim().split(/\s+/).filter(Boolean).length;
    this.label.textContent = `Thought · ${words} word${words === 1 ? "" : "s"}`;
  }

  cut() {
    this.label.textContent = "Thought · not finished";
    super.cut();
  }
}

export class ToolCallRow extends Row {
  init(name, id) {
    this.setup("tool");
    this.args = [];
    this.value = undefined;
    this.filled = false;
    this.callId = id;
    this.hint = h("span", { class: "sb-hint" });
    this.body = h("div", { class: "sb-tool-body" });
    this.details = h("details", {},
      h("summary", {},
        h("span", { class: "sb-icon", text: ICONS.tool }),
        h("span", { class: "sb-tool-name", text: name }),
        this.hint),
      this.body);
    this.details.addEventListener("toggle", () => this.fill());
    this.append(this.details);
    this.dataset.state = "streaming";
    return this;
  }

  add(text) {
    this.args.push(text);
  }

  // The arguments as far as written (BlockDelta.partial), while they stream.
  partial(value) {
    if (this.value !== undefined || !value || typeof value !== "object") return;
    const first = Object.values(value).find((item) => typeof item === "string");
    if (first) this.hint.textContent = preview(first, 80);
    this.live = value;
    if (this.details.open) this.body.replaceChildren(h("pre", { class: "sb-pre" }, JSON.stringify(value, null, 2)));
  }

  end() {
    const raw = this.args.join("");
    let value = raw;
    try {
      value = raw ? JSON.parse(raw) : {};
    } catch {
      value = raw;
    }
    const first = value && typeof value === "object"
      ? Object.values(value).find((item) => typeof item === "string")
      : value;
    if (first) this.hint.textContent = preview(first, 80);
    this.value = value;
    this.dataset.state = "done";
    this.fill();
  }

  // The input as highlighted JSON, built when the row is first open and complete.
  fill() {
    if (this.value === undefined && this.live && this.details.open) this.partial(this.live);
    if (this.filled || !this.details.open || this.value === undefined) return;
    this.filled = true;
    const value = this.value;
    const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
    this.body.replaceChildren(h("pre", { class: "sb-pre" }, codeElement(text, typeof value === "string" ? null : "json")));
  }
}

export class ResultRow extends Row {
  init(callId, content, toolName) {
    this.setup("result");
    this.dataset.toolCallId = callId;
    const text = pretty(content);
    const lines = lineCount(text);
    this.label = h("span", { class: "sb-label", text: toolName ? `${toolName} result` : "Result" });
    const summary = h("summary", {},
      h("span", { class: "sb-icon", text: ICONS.result }), this.label,
      h("span", { class: "sb-hint", text: lines > 1 ? `${preview(text, 70)} · ${lines} lines` : preview(text, 90) }));
    this.details = lazy(h("details", { open: lines <= COLLAPSE_LINES }, summary),
      () => h("pre", { class: "sb-pre sb-result-body" }, text));
    this.append(this.details);
    return this;
  }

  error() {
    this.classList.add("sb-error");
    this.label.textContent = `${this.label.textContent.replace(/ result$|^Result$/, "")} error`.trim();
  }
}

export class CommandRow extends Row {
  init(attrs) {
    this.setup("command");
    this.output = [];
    this.pre = h("pre", { class: "sb-terminal-out" });
    this.status = h("span", { class: "sb-exit" });
    this.append(h("div", { class: "sb-terminal" },
      h("div", { class: "sb-terminal-head" },
        h("span", { class: "sb-prompt", text: "$" }),
        h("code", { class: "sb-command-line", text: String(attrs.command ?? "") }),
        this.status),
      this.pre));
    this.attrs = attrs;
    this.showStatus(attrs);
    return this;
  }

  showStatus(attrs) {
    const code = attrs.exit_code;
    if (typeof code === "number") {
      this.status.textContent = `exit ${code}`;
      this.status.dataset.ok = String(code === 0);
    } else if (attrs.status) {
      this.status.textContent = String(attrs.status);
      this.status.dataset.ok = String(!/fail|error|interrupt|abort|cancel|declin/.test(attrs.status));
    } else this.status.textContent = "running…";
  }

  add(text) {
    this.output.push(text);
  }

  render() {
    if (!this.output.length) return;
    this.pre.append(this.output.join(""));
    this.output = [];
  }

  end(payload) {
    const output = typeof payload.content === "string" && payload.content ? payload.content : payload.attrs.output;
    this.output = [];
    this.pre.textContent = output ? String(output).replace(/\n$/, "") : "";
    this.showStatus(payload.attrs);
  }

  fail(error) {
    super.fail(error);
    this.status.textContent = "output dropped";
    this.status.dataset.ok = "false";
  }
}

const CHANGE = { add: "added", create: "added", update: "modified", modify: "modified", delete: "deleted", remove: "deleted" };

export class FileChangeRow extends Row {
  init(attrs) {
    this.setup("file");
    this.fill(attrs, "");
    return this;
  }

  fill(attrs, content) {
    const change = CHANGE[String(attrs.kind ?? "update")] ?? "modified";
    this.dataset.change = change;
    const diff = attrs.diff || content || "";
    const head = () => [
      h("span", { class: "sb-badge", text: change }),
      h("code", { class: "sb-path", text: String(attrs.path ?? "") }),
    ];
    const body = diff
      ? () => codePanel(diff, { language: "diff", label: "diff" })
      : attrs.content ? () => codePanel(String(attrs.content), { path: attrs.path }) : null;
    if (body) this.replaceChildren(lazy(h("details", {}, h("summary", {}, head())), body));
    else this.replaceChildren(h("div", { class: "sb-file-line" }, head()));
  }

  end(payload) {
    this.fill(payload.attrs, typeof payload.content === "string" ? payload.content : "");
  }
}

export class CodeRow extends Row {
  init(attrs) {
    this.setup("code");
    this.attrs = attrs;
    this.parts = [];
    return this;
  }

  add(text) {
    this.parts.push(text);
  }

  end(payload) {
    const text = typeof payload.content === "string" ? payload.content : this.parts.join("");
    const { language, path, start_line: start, total_lines: total } = payload.attrs;
    const label = path ? `${path}${start && total ? ` · lines ${start}–${start + lineCount(text) - 1} of ${total}` : ""}` : null;
    this.replaceChildren(codePanel(text, { language, path, label }));
  }
}

export class TodoRow extends Row {
  init() {
    this.setup("todo");
    return this;
  }

  end(payload) {
    const content = payload.content;
    const items = Array.isArray(content) ? content : content && Array.isArray(content.items) ? content.items : [];
    const list = h("ul", { class: "sb-todo-list" });
    const marks = { completed: "✓", in_progress: "◐", pending: "○" };
    for (const item of items) {
      const status = String(item.status ?? "pending");
      list.append(h("li", { "data-status": status },
        h("span", { class: "sb-todo-mark", text: marks[status] ?? "○" }),
        h("span", { class: "sb-todo-text", text: String(item.text ?? item.content ?? "") })));
    }
    const done = items.filter((item) => item.status === "completed").length;
    this.replaceChildren(h("div", { class: "sb-card-head" },
      h("span", { class: "sb-type", text: "plan" }),
      h("span", { class: "sb-hint", text: `${done} of ${items.length} done` })), list);
  }
}

function valueNode(value) {
  if (value !== null && typeof value === "object") {
    return h("pre", { class: "sb-pre" }, codeElement(JSON.stringify(value, null, 2), "json"));
  }
  const url = typeof value === "string" && /^https?:\/\//.test(value) ? value : null;
  return url ? link(url, url) : h("span", { text: String(value) });
}

// A custom block from the registry: its type, id and metadata, and its content.
export class BlockRow extends Row {
  init(start) {
    this.setup("block");
    this.start = start;
    this.parts = [];
    this.content = h("div", { class: "sb-block-content" });
    this.meta = h("dl", { class: "sb-meta" });
    this.head = h("div", { class: "sb-card-head" },
      h("span", { class: "sb-type", text: String(start.block_type ?? "block") }),
      h("span", { class: "sb-id", text: start.block_id ? `#${start.block_id}` : "" }),
      h("span", { class: "sb-syntax", text: String(start.syntax ?? "") }));
    this.append(this.head, this.meta, this.content);
    this.dataset.state = "streaming";
    return this;
  }

  metadata(value) {
    this.meta.replaceChildren();
    if (!value || typeof value !== "object") return;
    for (const [key, item] of Object.entries(value)) {
      if (key === "id" || key === "block_type" || (key === "params" && Array.isArray(item) && !item.length)) continue;
      this.meta.append(h("dt", { text: key }), h("dd", {}, valueNode(item)));
    }
  }

  add(text) {
    this.parts.push(text);
  }

  render() {
    if (!this.parts.length) return;
    this.content.append(this.parts.join(""));
    this.parts = [];
  }

  end(payload) {
    this.parts = [];
    this.dataset.state = "done";
    const attrs = payload.attrs && typeof payload.attrs === "object" ? payload.attrs : {};
    const metadata = { ...(payload.metadata && typeof payload.metadata === "object" ? payload.metadata : {}), ...attrs };
    const content = payload.content;
    const url = attrs.url ?? attrs.href ?? attrs.source;
    if (/^cit(e|ation)s?$/i.test(String(payload.type)) && typeof url === "string") {
      for (const key of ["url", "href", "source"]) delete metadata[key];
      this.metadata(metadata);
      this.classList.add("sb-citation");
      this.content.replaceChildren(link(url, typeof content === "string" && content.trim() ? content.trim() : url));
      return;
    }
    this.metadata(metadata);
    if (typeof content === "string") {
      this.content.replaceChildren();
      new Markdown(this.content).end(content);
    } else if (content !== null && content !== undefined && content !== "") {
      this.content.replaceChildren(valueNode(content));
    } else this.content.replaceChildren();
  }

  fail(error) {
    this.classList.add("sb-invalid");
    this.dataset.state = "invalid";
    this.parts = [];
    this.head.after(h("div", { class: "sb-block-error" },
      h("strong", { text: `${error.code ?? "error"}: ` }), String(error.message ?? "")));
    if (error.raw) {
      this.content.replaceChildren(h("details", {}, h("summary", { text: "raw text" }), h("pre", { class: "sb-pre" }, String(error.raw))));
    }
  }
}

export class NoticeRow extends Row {
  init(kind, title, detail = null) {
    this.setup(kind);
    const icon = h("span", { class: "sb-icon", text: kind === "warning" ? ICONS.warning : "·" });
    if (detail === null) this.append(icon, h("span", { class: "sb-notice", text: title }));
    else {
      this.append(lazy(h("details", {}, h("summary", {}, icon, h("span", { class: "sb-notice", text: title }))),
        () => h("pre", { class: "sb-pre" }, codeElement(pretty(detail), "json"))));
    }
    return this;
  }
}

export const ROWS = {
  "sb-text": TextRow,
  "sb-thinking": ThinkingRow,
  "sb-tool-call": ToolCallRow,
  "sb-tool-result": ResultRow,
  "sb-command": CommandRow,
  "sb-file-change": FileChangeRow,
  "sb-code-block": CodeRow,
  "sb-todo": TodoRow,
  "sb-block": BlockRow,
  "sb-notice": NoticeRow,
};

for (const [name, cls] of Object.entries(ROWS)) {
  if (!customElements.get(name)) customElements.define(name, cls);
}

export function row(name, ...args) {
  return document.createElement(name).init(...args);
}

export { copyButton };
