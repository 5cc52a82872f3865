// The project's CUSTOM events into rows: the method of <sb-run> (app.js) for
// `streamblocks.*` events — a block's start, metadata, deltas, end and error (its card, or
// the typed row a native block stands for: a terminal, a diff, a code panel, a plan) — and
// the viewer's own `streamblocks.view.*` (warnings, a sub-agent's parent, a call's partial
// arguments, a failed tool, a turn's usage, what --redact masked, a stopped run).

import { NONE } from "./list.js";

export const NATIVE_ROWS = { command: "sb-command", file_change: "sb-file-change", code: "sb-code-block", todo: "sb-todo" };
const NATIVE_TAGS = new Set(Object.values(NATIVE_ROWS));
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


export const CustomRows = {
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
  },
};
