/**
 * HTML text helpers for the reference page (lib/api/docs/page.ts): escaping of
 * every string that comes from the OpenAPI document, the one inline markup the
 * descriptions use (`code` in backticks), and anchor ids. No other markup is
 * interpreted, so a description can never inject HTML (HTML Living Standard §13.1).
 * @module
 */

const _ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` with the five HTML-significant characters replaced by references; safe in text and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => _ESCAPES[c]!);
}

/** A description as HTML: escaped, `backticked` spans as <code>, blank lines as paragraph breaks. */
export function prose(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((para) => `<p>${inline(para)}</p>`)
    .join("");
}

/** One line of description as HTML: escaped, `backticked` spans as <code>. */
export function inline(text: string): string {
  // Escaping leaves backticks alone, so the code spans are found in already-safe text.
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

/** `text` as an inline <code> element. */
export function code(text: string): string {
  return `<code>${escapeHtml(text)}</code>`;
}

/** An id attribute value built from `parts`: ASCII letters, digits, `-` and `_` only, so it needs no escaping in a URL fragment. */
export function anchorId(...parts: string[]): string {
  return parts.map((p) => p.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "")).join("-");
}

/** A link to the element with id `id` on this page. */
export function link(id: string, html: string): string {
  return `<a href="#${escapeHtml(id)}">${html}</a>`;
}
