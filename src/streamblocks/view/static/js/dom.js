// Building elements without markup: every string from the stream goes in as a Text node
// (Element.append(string) and textContent never parse HTML). Attributes are a fixed
// whitelist, so no event handler or URL can be set from data by accident.

const ATTRIBUTES = new Set(["title", "type", "role", "aria-label", "aria-live", "tabindex", "download"]);

export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "open") el.open = Boolean(value);
    else if (key.startsWith("data-") || ATTRIBUTES.has(key)) el.setAttribute(key, String(value));
    else throw new Error(`h(): unsupported property ${key}`);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) el.append(child);
  }
  return el;
}

// A link only for http(s) and mailto URLs; anything else is shown as text.
export function safeUrl(value) {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value, "http://invalid.invalid/");
    if (!/^(https?|mailto):$/.test(url.protocol) || url.hostname === "invalid.invalid") return null;
    return url.href;
  } catch {
    return null;
  }
}

export function link(href, text) {
  const url = safeUrl(href);
  if (url === null) return document.createTextNode(text);
  const a = h("a", { class: "sb-link", title: url }, text);
  a.href = url;
  a.rel = "noopener noreferrer";
  a.target = "_blank";
  return a;
}

export function lineCount(text) {
  if (!text) return 0;
  let count = 1;
  let at = text.indexOf("\n");
  while (at >= 0 && at < text.length - 1) {
    count += 1;
    at = text.indexOf("\n", at + 1);
  }
  return count;
}

export function preview(text, limit = 90) {
  const line = String(text).trim().split("\n", 1)[0];
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

export function pretty(value) {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

// Build a <details> element's body the first time it opens: a collapsed row costs one
// summary line, however large its body (a long run has thousands of them).
export function lazy(details, build) {
  let built = false;
  const fill = () => {
    if (!built && details.open) {
      built = true;
      details.append(build());
    }
  };
  details.addEventListener("toggle", fill);
  fill();
  return details;
}
