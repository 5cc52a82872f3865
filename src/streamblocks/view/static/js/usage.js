// Tokens and time per turn, where the run records them: each `streamblocks.view.usage`
// event is one model turn's (the server reads it from the run's own records: Claude Code's
// message usage, Codex's token counts, a provider's usage event). It is added to the turn
// it ends — the outline's last turn, or the sub-agent of the call it names — and to the
// run's sums, which the footer shows. A run that records none shows none.

import { h } from "./dom.js";

const TOKENS = [
  ["input_tokens", "in"],
  ["output_tokens", "out"],
  ["cache_read_tokens", "cached"],
  ["cache_write_tokens", "cache write"],
];
const FIELDS = [...TOKENS.map(([key]) => key), "reasoning_tokens", "duration_ms"];
const COUNT = new Intl.NumberFormat("en-US");
let short = null; // the compact format, made when first used (its locale data is not small)

function compactFormat() {
  short ??= new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
  return short;
}

// `into` (a sum, or null) with the turn `value` added: a field is summed over the turns
// that record it, and stays absent when none does.
export function addUsage(into, value) {
  const sum = into ?? { turns: 0 };
  sum.turns += 1;
  for (const key of FIELDS) {
    if (typeof value[key] === "number") sum[key] = (sum[key] ?? 0) + value[key];
  }
  return sum;
}

export function duration(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

// [[name, text]…] of a usage: its tokens (compact: "12.3K"; whole: "12,345") and its time.
export function usageFacts(usage, compact = true) {
  const format = compact ? compactFormat() : COUNT;
  const facts = [];
  for (const [key, name] of TOKENS) {
    if (typeof usage[key] === "number") facts.push([name, format.format(usage[key])]);
  }
  if (typeof usage.duration_ms === "number") facts.push(["took", duration(usage.duration_ms)]);
  return facts;
}

// What an outline entry has room for: "1.2K out · 3.40 s" (the whole usage in its title).
export function usageBrief(usage) {
  const brief = [];
  if (typeof usage.output_tokens === "number") brief.push(`${compactFormat().format(usage.output_tokens)} out`);
  else if (typeof usage.input_tokens === "number") brief.push(`${compactFormat().format(usage.input_tokens)} in`);
  if (typeof usage.duration_ms === "number") brief.push(duration(usage.duration_ms));
  return brief.join(" · ");
}

export function usageTitle(usage) {
  return usageFacts(usage, false).map((fact) => fact.join(" ")).join(" · ");
}

// The line a turn's first row (or a sub-agent's bar) shows: "in 1.2K · out 56 · took 3.4 s",
// every figure whole in its title.
export function usageLine(usage, label = null) {
  const whole = [usageTitle(usage)];
  if (typeof usage.reasoning_tokens === "number") whole.push(`reasoning ${COUNT.format(usage.reasoning_tokens)}`);
  const calls = usage.turns > 1 ? ` (${usage.turns} model calls)` : "";
  const line = h("div", { class: "sb-usage", title: `${whole.join(" · ")}${calls}` });
  if (label) line.append(h("span", { class: "sb-usage-label", text: label }));
  for (const [name, text] of usageFacts(usage)) {
    line.append(h("span", { class: "sb-usage-fact", "data-name": name }, h("span", { class: "sb-usage-name", text: name }), " ", text));
  }
  return line;
}
