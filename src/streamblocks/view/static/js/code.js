// Highlighted code, built from DOM nodes. highlight.js returns HTML; that string is parsed
// by an inert DOMParser (nothing loads or runs in it) and rebuilt here from a whitelist:
// <span> elements with hljs-* classes and Text nodes, nothing else. The page's CSP
// requires Trusted Types, and `sb-highlight` is the only policy it allows.

import { h } from "./dom.js";

const MAX_HIGHLIGHT = 200000;
const policy = window.trustedTypes
  ? window.trustedTypes.createPolicy("sb-highlight", { createHTML: (html) => html })
  : null;
const CLASS = /^(hljs-[\w-]+|language_?[\w-]*|[\w-]+_)$/;

export const EXTENSIONS = {
  py: "python", js: "javascript", mjs: "javascript", ts: "typescript", tsx: "typescript",
  jsx: "javascript", rb: "ruby", rs: "rust", go: "go", java: "java", kt: "kotlin",
  c: "c", h: "c", cc: "cpp", cpp: "cpp", hpp: "cpp", cs: "csharp", php: "php",
  sh: "bash", bash: "bash", zsh: "bash", md: "markdown", json: "json", yml: "yaml",
  yaml: "yaml", toml: "ini", ini: "ini", html: "xml", xml: "xml", css: "css",
  scss: "scss", sql: "sql", swift: "swift", lua: "lua", r: "r", diff: "diff", patch: "diff",
};

export function languageOf(language, path) {
  const hljs = window.hljs;
  const known = (name) => Boolean(name && hljs && hljs.getLanguage(name));
  if (known(language)) return language;
  const ext = typeof path === "string" ? path.split(".").pop().toLowerCase() : "";
  if (ext && EXTENSIONS[ext]) return EXTENSIONS[ext];
  if (known(ext)) return ext;
  return language || null;
}

function rebuild(node, into) {
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) {
      into.append(child.data);
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      if (child.tagName === "SPAN") {
        const span = document.createElement("span");
        const classes = [...child.classList].filter((name) => CLASS.test(name));
        if (classes.length) span.className = classes.join(" ");
        rebuild(child, span);
        into.append(span);
      } else {
        into.append(child.textContent);
      }
    }
  }
}

function highlighted(code, text, language) {
  let html;
  try {
    html = window.hljs.highlight(text, { language, ignoreIllegals: true }).value;
  } catch {
    return;
  }
  const doc = new DOMParser().parseFromString(
    policy ? policy.createHTML(`<pre>${html}</pre>`) : `<pre>${html}</pre>`,
    "text/html",
  );
  const pre = doc.body.firstElementChild;
  if (!pre) return;
  const fresh = document.createDocumentFragment();
  rebuild(pre, fresh);
  code.replaceChildren(fresh);
  code.dataset.highlighted = "true";
}

// Code is highlighted when its row is drawn: only the rows near the viewport have
// elements (see list.js), so a long run highlights what is read, not all it holds.
const jobs = new WeakMap(); // <code> -> {text, language}

function highlightNow(code) {
  const job = jobs.get(code);
  if (!job) return;
  jobs.delete(code);
  delete code.dataset.pending;
  highlighted(code, job.text, job.language);
}

// A <code> element holding `text`, highlighted as `language` (when highlight.js knows it)
// once it is near the viewport.
export function codeElement(text, language) {
  const code = h("code", { class: "hljs", text });
  const hljs = window.hljs;
  if (!hljs || !language || !hljs.getLanguage(language) || text.length > MAX_HIGHLIGHT) return code;
  code.dataset.language = language;
  code.dataset.pending = "true";
  jobs.set(code, { text, language });
  requestAnimationFrame(() => {
    if (code.isConnected) highlightNow(code);
  });
  return code;
}

export function copyButton(getText) {
  const button = h("button", { class: "sb-copy", type: "button", title: "Copy to clipboard" }, "Copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(getText());
      button.textContent = "Copied";
    } catch {
      button.textContent = "Copy failed";
    }
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  });
  return button;
}

// A code panel: a header (language or path, copy button) and the highlighted code.
export function codePanel(text, { language = null, path = null, label = null } = {}) {
  const lang = languageOf(language, path);
  const name = label || path || lang || "text";
  const header = h("div", { class: "sb-code-head" },
    h("span", { class: "sb-code-lang", text: name }),
    copyButton(() => text));
  const pre = h("pre", { class: "sb-pre" }, codeElement(text, lang));
  return h("div", { class: "sb-code", "data-language": lang || "" }, header, pre);
}
