/**
 * The human reference (the OpenAPI document `GET /docs`): one self-contained HTML page
 * rendered from the OpenAPI document: the conventions, every operation grouped
 * by tag, the webhook events and every schema, with a table of contents of
 * internal anchors. A pure function of the document: no I/O, no scripts, no
 * external resources; every string from the document is escaped (html.ts).
 * @module
 */
import { conventionSections } from "./conventions.ts";
import { anchorId, escapeHtml, link, prose } from "./html.ts";
import { operationAnchor, OperationView, type OperationPlace } from "./operation_view.ts";
import { schemaAnchor, SchemaView, type Json } from "./schema_view.ts";
import { DOCS_CSS } from "./style.ts";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const UNTAGGED = "Other";

/** An operation of the document with where it sits. */
interface _Entry {
  place: OperationPlace;
  op: Json;
}

/** The reference page for `doc` (an OpenAPI 3.1 document), as one HTML string. */
export function renderDocsPage(doc: Json): string {
  const view = new SchemaView(doc);
  const ops = new OperationView(doc, view);
  const info = (doc.info ?? {}) as Json;
  const title = String(info.title ?? "API");
  const byTag = _groupByTag(doc);
  const events = _entries((doc.webhooks ?? {}) as Record<string, Json>, true);
  const schemas = Object.entries((((doc.components ?? {}) as Json).schemas ?? {}) as Record<string, Json>);
  const conventions = conventionSections(doc, view);

  const toc: string[] = ['<nav class="toc" aria-label="Contents">', `<h2>${link("top", "Contents")}</h2>`];
  toc.push(`<h2>${link("conventions", "Conventions")}</h2><ul>`, ...conventions.map((c) => `<li>${link(c.id, escapeHtml(c.title))}</li>`), "</ul>");
  toc.push(`<h2>${link("operations", "Operations")}</h2><ul>`);
  for (const [tag, entries] of byTag) {
    toc.push(`<li>${link(anchorId("tag", tag), escapeHtml(tag))}<ul>`, ...entries.map((e) => _tocEntry(e)), "</ul></li>");
  }
  toc.push("</ul>");
  if (events.length > 0) toc.push(`<h2>${link("webhook-events", "Webhook events")}</h2><ul>`, ...events.map((e) => _tocEntry(e)), "</ul>");
  if (schemas.length > 0) toc.push(`<h2>${link("schemas", "Schemas")}</h2><ul>`, ...schemas.map(([name]) => `<li>${link(schemaAnchor(name), escapeHtml(name))}</li>`), "</ul>");
  toc.push("</nav>");

  const main: string[] = ['<main>', '<header class="top" id="top">'];
  main.push(`<h1>${escapeHtml(title)} <span class="version">${escapeHtml(String(info.version ?? ""))} reference</span></h1>`);
  if (typeof info.description === "string") main.push(`<div class="intro">${prose(info.description)}</div>`);
  const self = _entries((doc.paths ?? {}) as Record<string, Json>, false).find((e) => e.place.method === "GET" && e.place.path.endsWith("/openapi.json"));
  if (self) {
    const name = `<code>GET ${escapeHtml(self.place.path)}</code>`;
    main.push(`<p class="intro">This page is rendered from the OpenAPI ${escapeHtml(String(doc.openapi ?? ""))} document ${link(operationAnchor(String(self.op.operationId)), name)}, the machine-readable form of the same contract.</p>`);
  }
  main.push("</header>");
  main.push('<h2 class="part" id="conventions">Conventions</h2>');
  for (const c of conventions) main.push(`<section class="conv" id="${c.id}"><h3>${escapeHtml(c.title)}</h3>${c.html}</section>`);
  main.push('<h2 class="part" id="operations">Operations</h2>');
  const tags = new Map(((doc.tags ?? []) as Json[]).map((t) => [String(t.name), t]));
  for (const [tag, entries] of byTag) {
    const description = tags.get(tag)?.description;
    main.push(`<section class="tag" id="${anchorId("tag", tag)}"><h2>${escapeHtml(tag)}</h2>${typeof description === "string" ? prose(description) : ""}`);
    for (const e of entries) main.push(ops.render(e.place, e.op));
    main.push("</section>");
  }
  if (events.length > 0) {
    main.push('<h2 class="part" id="webhook-events">Webhook events</h2>', prose("Requests this server sends to your webhook endpoints (see Webhooks and their signing above)."));
    for (const e of events) main.push(ops.render(e.place, e.op));
  }
  if (schemas.length > 0) {
    main.push('<h2 class="part" id="schemas">Schemas</h2>');
    for (const [name, schema] of schemas) {
      const description = typeof schema.description === "string" ? prose(schema.description) : "";
      main.push(`<section class="schema" id="${schemaAnchor(name)}"><h3>${escapeHtml(name)}</h3>${description}${view.shapeHtml(schema)}</section>`);
    }
  }
  main.push("</main>");

  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${escapeHtml(title)} reference</title>`,
    `<style>${DOCS_CSS}</style>`,
    "</head><body>",
    '<div class="layout">', ...toc, ...main, "</div>",
    "</body></html>",
    "",
  ].join("\n");
}

/** Operations of `doc.paths` grouped by their first tag, in the document's tag order. */
function _groupByTag(doc: Json): Map<string, _Entry[]> {
  const groups = new Map<string, _Entry[]>(((doc.tags ?? []) as Json[]).map((t) => [String(t.name), []]));
  for (const e of _entries((doc.paths ?? {}) as Record<string, Json>, false)) {
    const tag = Array.isArray(e.op.tags) && typeof e.op.tags[0] === "string" ? e.op.tags[0] : UNTAGGED;
    if (!groups.has(tag)) groups.set(tag, []);
    groups.get(tag)!.push(e);
  }
  for (const [tag, list] of groups) if (list.length === 0) groups.delete(tag);
  return groups;
}

/** The operations of a paths or webhooks object, in document order. */
function _entries(items: Record<string, Json>, webhook: boolean): _Entry[] {
  const out: _Entry[] = [];
  for (const [path, item] of Object.entries(items)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as Json | undefined;
      if (op) out.push({ place: { method: method.toUpperCase(), path, webhook }, op: { operationId: `${method}${path}`, ...op } });
    }
  }
  return out;
}

function _tocEntry(e: _Entry): string {
  const m = e.place.method;
  return `<li>${link(operationAnchor(String(e.op.operationId)), `<span class="method m-${escapeHtml(m.toLowerCase())}">${escapeHtml(m)}</span> <span class="tpath">${escapeHtml(e.place.path).replace(/\//g, "/<wbr>")}</span>`)}</li>`;
}

