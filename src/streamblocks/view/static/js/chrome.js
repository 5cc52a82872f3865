// The page around the rows: the toolbar's visibility toggles (remembered in
// localStorage) and the footer with the run's outcome, usage, cost and elapsed time.

import { h } from "./dom.js";

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
  connectedCallback() {
    const run = document.querySelector("sb-run");
    const hidden = loadHidden();
    const apply = () => {
      for (const [kind] of KINDS) run.classList.toggle(`sb-hide-${kind}`, hidden.has(kind));
    };
    const group = h("div", { class: "sb-toggles", role: "group", "aria-label": "Show or hide" });
    for (const [kind, label] of KINDS) {
      const button = h("button", { class: "sb-toggle", type: "button", "data-kind": kind }, label);
      button.setAttribute("aria-pressed", String(!hidden.has(kind)));
      button.addEventListener("click", () => {
        if (hidden.has(kind)) hidden.delete(kind);
        else hidden.add(kind);
        button.setAttribute("aria-pressed", String(!hidden.has(kind)));
        try {
          localStorage.setItem(STORAGE_KEY, JSON.stringify([...hidden]));
        } catch {
          // private mode: the choice lasts for this page only
        }
        apply();
      });
      group.append(button);
    }
    const exportLink = h("a", { class: "sb-button", download: "streamblocks-run.json", title: "Save the run as content-model JSON (open it again with streamblocks view FILE)" }, "Export JSON");
    exportLink.href = "/export.json";
    this.replaceChildren(group, exportLink);
    apply();
  }
}

function tokens(value) {
  return typeof value === "number" ? value.toLocaleString("en-US") : null;
}

function seconds(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
}

class Footer extends HTMLElement {
  connectedCallback() {
    this.status = h("span", { class: "sb-status", text: "connecting…" });
    this.facts = h("span", { class: "sb-facts" });
    this.replaceChildren(this.status, this.facts);
    this.duration = null;
    this.cost = null;
  }

  raw(event) {
    // Agent CLIs report the run's own duration and cost in their last line.
    if (event && typeof event === "object") {
      if (typeof event.duration_ms === "number") this.duration = event.duration_ms;
      if (typeof event.total_cost_usd === "number") this.cost = event.total_cost_usd;
    }
  }

  update(run) {
    if (run.finished) return;
    this.status.textContent = run.dataset.state === "connecting" ? "connecting…" : `streaming · ${run.count.toLocaleString("en-US")} events`;
  }

  finish(result, error) {
    const facts = [];
    const usage = result.usage ?? {};
    const stop = result.stop_reason;
    this.status.textContent = error ? "failed" : stop ? "finished" : "ended";
    this.dataset.outcome = error ? "error" : "ok";
    if (error) facts.push(["error", error]);
    if (stop && stop !== "unknown") facts.push(["stop", String(stop)]);
    const input = tokens(usage.input_tokens);
    const output = tokens(usage.output_tokens);
    if (input) facts.push(["in", `${input} tokens`]);
    if (output) facts.push(["out", `${output} tokens`]);
    if (tokens(usage.cache_read_tokens)) facts.push(["cached", `${tokens(usage.cache_read_tokens)} tokens`]);
    const cost = typeof usage.cost_usd === "number" ? usage.cost_usd : this.cost;
    if (typeof cost === "number") facts.push(["cost", `$${cost.toFixed(4)}`]);
    const counts = result.counts ?? {};
    if (typeof counts.blocks === "number") facts.push(["blocks", String(counts.blocks)]);
    if (counts.errors) facts.push(["rejected", String(counts.errors)]);
    const run = document.querySelector("sb-run");
    if (this.duration !== null) facts.push(["run took", seconds(this.duration)]);
    facts.push(["elapsed", seconds(run?.elapsed ?? 0)]);
    this.facts.replaceChildren(...facts.map(([name, value]) =>
      h("span", { class: "sb-fact", "data-name": name }, h("span", { class: "sb-fact-name", text: name }), value)));
  }
}

class Title extends HTMLElement {
  show(info) {
    const title = String(info.title ?? "streamblocks");
    this.replaceChildren(h("span", { class: "sb-source", text: title }));
    if (info.live) this.append(h("span", { class: "sb-live", text: "live" }));
    document.title = `${title} · streamblocks view`;
  }
}

customElements.define("sb-toolbar", Toolbar);
customElements.define("sb-footer", Footer);
customElements.define("sb-title", Title);
