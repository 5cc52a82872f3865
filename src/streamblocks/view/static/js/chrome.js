// The page around the rows: the toolbar's visibility toggles (remembered in
// localStorage), the title with its LIVE badge, and the footer with the run's state,
// outcome, usage, cost, the run's own duration and what --redact masked.

import { h } from "./dom.js";
import { FILTER_OF } from "./list.js";
import { duration } from "./usage.js";

const KINDS = [
  ["thinking", "Thinking"],
  ["tool", "Tool calls"],
  ["result", "Results"],
  ["command", "Commands"],
  ["file", "File changes"],
  ["code", "Code"],
  ["block", "Custom blocks"],
  ["raw", "Raw events"],
];
const HIDDEN_BY_DEFAULT = ["raw"];
const STORAGE_KEY = "streamblocks.view.hidden";

function loadHidden() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    if (Array.isArray(saved)) return new Set(saved.filter((kind) => typeof kind === "string"));
  } catch {
    // unreadable storage: the defaults
  }
  return new Set(HIDDEN_BY_DEFAULT);
}

class Toolbar extends HTMLElement {
  attach(run) {
    this.run = run;
    this.off = loadHidden();
    this.buttons = new Map();
    const group = h("div", { class: "sb-toggles", role: "group", "aria-label": "Show or hide" });
    for (const [kind, label] of KINDS) {
      const button = h("button", { class: "sb-toggle", type: "button", "data-kind": kind }, label);
      button.setAttribute("aria-pressed", String(!this.off.has(kind)));
      button.addEventListener("click", () => this.set(kind, this.off.has(kind)));
      this.buttons.set(kind, button);
      group.append(button);
    }
    const outline = h("button", { class: "sb-button sb-outline-button", type: "button", title: "The run's turns, tool calls, errors and sub-agents" }, "Outline");
    outline.addEventListener("click", () => document.querySelector("sb-outline")?.toggle());
    this.replaceChildren(group, outline);
    run.list.hidden = this.off;
    run.list.relist();
  }

  // What a served page can save (a saved file has no server to ask): the run as JSON,
  // as one HTML file, and (when the server can read the input again) redacted.
  offer(info) {
    if (info.saved || this.offered) return;
    this.offered = true;
    const save = (href, name, label, title) => {
      const link = h("a", { class: "sb-button", download: name, title }, label);
      link.href = href;
      this.append(link);
    };
    save("/export.json", "streamblocks-run.json", "Export JSON", "Save the run as content-model JSON (open it again with streamblocks view FILE)");
    const redacted = info.redacted ? " (secrets, e-mail addresses and home directories masked)" : "";
    save("/export.html", "streamblocks-run.html", "Save as HTML", `Save this page with the run in it: one file that opens without a server${redacted}`);
    if (!info.redacted && info.rereadable) {
      save("/export.html?redact", "streamblocks-run-redacted.html", "Save redacted", "Save as HTML with API keys, tokens, private keys, secrets, e-mail addresses and home directories masked");
    }
  }

  // Show (or hide) a kind of row: the rows are listed again, only the visible redrawn.
  set(kind, visible) {
    if (visible) this.off.delete(kind);
    else this.off.add(kind);
    this.buttons.get(kind)?.setAttribute("aria-pressed", String(visible));
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify([...this.off]));
    } catch {
      // private mode: the choice lasts for this page only
    }
    this.run.list.relist();
  }

  show(kind) {
    const filter = FILTER_OF[kind] ?? kind;
    if (this.off.has(filter)) this.set(filter, true);
  }
}

const STATUS = {
  connecting: "connecting…",
  waiting: "waiting for input",
  disconnected: "disconnected · reconnecting…",
};

const COUNT = new Intl.NumberFormat("en-US");
const COUNT_EVERY_MS = 250;

// "1 token", "12,000 tokens"; null when the source did not say.
function tokens(value) {
  if (typeof value !== "number") return null;
  return `${COUNT.format(value)} token${value === 1 ? "" : "s"}`;
}

function fact([name, value]) {
  return h("span", { class: "sb-fact", "data-name": name }, h("span", { class: "sb-fact-name", text: name }), value);
}

class Footer extends HTMLElement {
  connectedCallback() {
    this.status = h("span", { class: "sb-status", text: "connecting…" });
    this.facts = h("span", { class: "sb-facts" });
    this.replaceChildren(this.status, this.facts);
    this.duration = null;
    this.cost = null;
    this.shownAt = -Infinity;
    this.timer = null;
  }

  raw(event) {
    // Agent CLIs report the run's own duration and cost in their last line.
    if (event && typeof event === "object") {
      if (typeof event.duration_ms === "number") this.duration = event.duration_ms;
      if (typeof event.total_cost_usd === "number") this.cost = event.total_cost_usd;
    }
  }

  // The state, once per animation frame at most; the count of events while streaming
  // every quarter second at most (a new text in the footer is a new layout of the page).
  update(run) {
    if (run.finished) return;
    const state = run.dataset.state;
    if (state === "streaming" && this.status.dataset.state === state) {
      const wait = this.shownAt + COUNT_EVERY_MS - performance.now();
      if (wait > 0) {
        this.timer ??= setTimeout(() => {
          this.timer = null;
          this.update(run);
        }, wait);
        return;
      }
    }
    this.status.dataset.state = state;
    this.shownAt = performance.now();
    const text = STATUS[state] ?? (state === "streaming" ? `streaming · ${COUNT.format(run.count)} events` : state);
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  // The outcome.
  finish(run, result, error, reason = null) {
    this.done = true;
    const facts = [];
    // the run's own total when it states one, else the sum of its turns' (usage.js)
    const turns = run.outline.usage;
    const usage = result.usage && typeof result.usage.input_tokens === "number" ? result.usage : turns ?? result.usage ?? {};
    const stop = result.stop_reason;
    this.status.textContent = run.dataset.state;
    this.dataset.outcome = error ? "error" : run.dataset.state === "stopped" ? "stopped" : "ok";
    if (error) facts.push(["error", error]);
    if (reason) facts.push(["why", reason]);
    if (stop && stop !== "unknown") facts.push(["stop", String(stop)]);
    const input = tokens(usage.input_tokens);
    const output = tokens(usage.output_tokens);
    const cached = tokens(usage.cache_read_tokens);
    if (input) facts.push(["in", input]);
    if (output) facts.push(["out", output]);
    if (cached) facts.push(["cached", cached]);
    const written = tokens(usage.cache_write_tokens);
    if (written) facts.push(["cache write", written]);
    if (turns) facts.push(["turns metered", COUNT.format(turns.turns)]);
    if (typeof turns?.duration_ms === "number") facts.push(["model time", duration(turns.duration_ms)]);
    const cost = typeof usage.cost_usd === "number" ? usage.cost_usd : this.cost;
    if (typeof cost === "number") facts.push(["cost", `$${cost.toFixed(4)}`]);
    const counts = result.counts ?? {};
    if (typeof counts.blocks === "number") facts.push(["blocks", COUNT.format(counts.blocks)]);
    if (counts.errors) facts.push(["rejected", COUNT.format(counts.errors)]);
    if (this.duration !== null) facts.push(["run took", duration(this.duration)]);
    this.facts.replaceChildren(...facts.map(fact));
    if (this.masked) this.facts.append(fact(["redacted", this.masked]));
  }

  // How many of each kind of secret the server masked (`--redact`).
  redacted(counts) {
    const said = Object.entries(counts).filter(([, n]) => n > 0).map(([kind, n]) => `${COUNT.format(n)} ${kind}`);
    this.masked = said.length ? said.join(" · ") : "nothing found";
    if (this.done) {
      this.facts.querySelector("[data-name=redacted]")?.remove();
      this.facts.append(fact(["redacted", this.masked]));
    }
  }
}

class Title extends HTMLElement {
  show(info) {
    const title = String(info.title ?? "streamblocks");
    this.replaceChildren(h("span", { class: "sb-source", text: title }));
    this.badge = h("span", { class: "sb-live", text: "live", title: "the input is still open" });
    this.badge.hidden = true;
    this.append(this.badge);
    document.title = `${title} · streamblocks view`;
  }

  // The LIVE badge: only while a live input is open.
  live(open) {
    if (this.badge) this.badge.hidden = !open;
  }
}

customElements.define("sb-toolbar", Toolbar);
customElements.define("sb-footer", Footer);
customElements.define("sb-title", Title);
