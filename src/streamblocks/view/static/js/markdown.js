// A small markdown renderer for streamed text: headings, paragraphs, lists, quotes, rules,
// tables and fenced code; inline code, bold, italic and links. It never produces markup:
// each element is created by name and every piece of text goes in as a Text node, so
// `<img onerror=…>` in the text is shown as the characters it is.
//
// Rendering is incremental: blocks that can no longer change are rendered once and kept;
// only the last, still-open block is redrawn when more text arrives.

import { codePanel } from "./code.js";
import { h, link, safeUrl } from "./dom.js";

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const INLINE =
  /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__|\*(?=[^\s*])([^*]*?[^\s*])\*|\b_(?=[^\s_])([^_]*?[^\s_])_\b|\[([^\]\n]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"\]])/g;

export function inline(text, into) {
  let last = 0;
  INLINE.lastIndex = 0;
  for (let match = INLINE.exec(text); match; match = INLINE.exec(text)) {
    if (match.index > last) into.append(text.slice(last, match.index));
    last = INLINE.lastIndex;
    if (match[2] !== undefined) into.append(h("code", { class: "sb-inline-code", text: match[2] }));
    else if (match[3] !== undefined || match[4] !== undefined) {
      const strong = h("strong");
      inline(match[3] ?? match[4], strong);
      into.append(strong);
    } else if (match[5] !== undefined || match[6] !== undefined) {
      const em = h("em");
      inline(match[5] ?? match[6], em);
      into.append(em);
    } else if (match[7] !== undefined) {
      into.append(safeUrl(match[8]) ? link(match[8], match[7]) : match[0]); // unsafe: as written
    }
    else into.append(link(match[9], match[9]));
    INLINE.lastIndex = last; // the recursive calls reset the shared expression
  }
  if (last < text.length) into.append(text.slice(last));
  return into;
}

function cells(line) {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|")) row = row.slice(0, -1);
  return row.split("|").map((cell) => cell.trim());
}

// Split complete lines into blocks: [{kind, lines, start}], `start` being the offset of
// the block's first line in `text`.
function blocks(lines) {
  const out = [];
  let current = null;
  let offset = 0;
  const open = (kind, extra = {}) => {
    current = { kind, lines: [], start: offset, ...extra };
    out.push(current);
    return current;
  };
  for (const line of lines) {
    const length = line.length + 1;
    if (current && current.kind === "fence") {
      current.lines.push(line);
      const close = line.match(/^ {0,3}(`{3,}|~{3,})\s*$/);
      if (close && close[1][0] === current.marker[0] && close[1].length >= current.marker.length) {
        current.closed = true;
        current = null;
      }
    } else if (!line.trim()) {
      current = null;
    } else if (FENCE.test(line)) {
      const [, marker, info] = line.match(FENCE);
      open("fence", { marker, info }).lines.push(line);
    } else if (HEADING.test(line)) {
      open("heading").lines.push(line);
      current = null;
    } else if (RULE.test(line) && !(current && current.kind === "paragraph")) {
      open("rule").lines.push(line);
      current = null;
    } else if (QUOTE.test(line) && !(current && current.kind === "list")) {
      if (!current || current.kind !== "quote") open("quote");
      current.lines.push(line);
    } else if (ITEM.test(line)) {
      if (!current || current.kind !== "list") open("list");
      current.lines.push(line);
    } else if (current && current.kind === "paragraph" && current.lines.length === 1
      && current.lines[0].includes("|") && TABLE_RULE.test(line)) {
      current.kind = "table";
      current.lines.push(line);
    } else if (current && (current.kind === "paragraph" || current.kind === "list"
      || current.kind === "quote" || current.kind === "table")) {
      current.lines.push(line);
    } else {
      open("paragraph").lines.push(line);
    }
    offset += length;
  }
  return out;
}

function renderBlock(block) {
  const { kind, lines } = block;
  if (kind === "fence") {
    const body = lines.slice(1, block.closed ? -1 : undefined).join("\n");
    return codePanel(body ? `${body}\n` : "", { language: block.info || null });
  }
  if (kind === "heading") {
    const [, hashes, title] = lines[0].match(HEADING);
    return inline(title, h(`h${Math.min(hashes.length + 1, 6)}`, { class: "sb-md-heading" }));
  }
  if (kind === "rule") return h("hr");
  if (kind === "quote") {
    const quote = h("blockquote");
    const inner = lines.map((line) => line.match(QUOTE)?.[1] ?? line).join("\n");
    new Markdown(quote).end(inner);
    return quote;
  }
  if (kind === "list") {
    const ordered = /^\s*\d/.test(lines[0]);
    const list = h(ordered ? "ol" : "ul");
    let item = null;
    for (const line of lines) {
      const match = line.match(ITEM);
      if (match) {
        item = h("li");
        const task = match[3].match(/^\[([ xX])\]\s+(.*)$/);
        if (task) {
          item.append(h("span", { class: "sb-task", text: task[1] === " " ? "☐ " : "☑ " }));
          inline(task[2], item);
        } else inline(match[3], item);
        if (match[1].length >= 2) item.className = "sb-nested";
        list.append(item);
      } else if (item) {
        item.append(" ");
        inline(line.trim(), item);
      }
    }
    return list;
  }
  if (kind === "table") {
    const table = h("table", { class: "sb-table" });
    const head = h("tr");
    for (const cell of cells(lines[0])) head.append(inline(cell, h("th")));
    table.append(h("thead", {}, head));
    const body = h("tbody");
    for (const line of lines.slice(2)) {
      const row = h("tr");
      for (const cell of cells(line)) row.append(inline(cell, h("td")));
      body.append(row);
    }
    table.append(body);
    return h("div", { class: "sb-table-wrap" }, table);
  }
  return inline(lines.join("\n"), h("p"));
}

const LARGE_TAIL = 32768;

export class Markdown {
  constructor(container) {
    this.container = container;
    this.pending = [];
    this.done = 0; // characters of the text rendered into blocks that are final
    this.text = "";
    this.tail = [];
    this.tailSize = 0; // the open part's size when the tail was last drawn
    this.raw = null; // text that arrived since then, shown as it is (see render)
  }

  add(text) {
    this.pending.push(text);
  }

  // Draw what arrived since the last call (`final`: the text is complete). The last,
  // still-open block is redrawn from its source; once it is large (a reply that is one
  // long unclosed fence) it is redrawn only each time it has doubled, the text between
  // shown unformatted at its end, so the total work stays linear in the text.
  render(final = false) {
    const fresh = this.pending.length ? this.pending.join("") : "";
    this.pending = [];
    this.text += fresh;
    const openSize = this.text.length - this.done;
    if (!final && openSize > LARGE_TAIL && openSize < 2 * this.tailSize) {
      if (!this.raw) {
        this.raw = h("p", { class: "sb-raw-tail" });
        this.tail.push(this.raw);
        this.container.append(this.raw);
      }
      this.raw.append(fresh);
      return;
    }
    for (const node of this.tail) node.remove();
    this.tail = [];
    this.raw = null;
    const open = this.text.slice(this.done);
    const cut = final ? open.length : open.lastIndexOf("\n") + 1;
    const parsed = blocks(open.slice(0, cut).split("\n").slice(0, final ? undefined : -1));
    const keep = final ? parsed.length : Math.max(0, parsed.length - 1);
    for (const block of parsed.slice(0, keep)) this.container.append(renderBlock(block));
    if (final) {
      this.done = this.text.length;
      return;
    }
    this.done += keep < parsed.length ? parsed[keep].start : cut;
    const rest = this.text.slice(this.done);
    this.tailSize = rest.length;
    if (rest.trim()) {
      for (const block of blocks(rest.split("\n"))) {
        const node = renderBlock(block);
        node.classList.add("sb-open");
        this.tail.push(node);
        this.container.append(node);
      }
    }
  }

  end(text = "") {
    if (text) this.add(text);
    this.render(true);
  }
}
