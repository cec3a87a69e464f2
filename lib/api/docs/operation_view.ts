/**
 * One operation of the OpenAPI document as a section of the reference page:
 * method and path, scope, parameters, request body fields, responses with their
 * notable headers and body fields, the error codes by status (linked to the
 * errors table), and a curl example. Webhook events use the same view without
 * the curl line. It reads the document; it does not check it.
 * @module
 */
import { errorAnchor, errorCodeOf } from "./conventions.ts";
import { curlExample } from "./curl.ts";
import { anchorId, code, escapeHtml, inline, link, prose } from "./html.ts";
import { refName, resolvePointer, schemaAnchor, SchemaView, type Json } from "./schema_view.ts";

/** Headers every /api/v1 response carries: explained once in the conventions, not repeated per response. */
const COMMON_HEADERS = new Set(["x-request-id", "x-correlation-id", "x-content-type-options", "ratelimit-policy", "ratelimit"]);
const MEDIA_JSON = "application/json";

/** Where an operation sits: a path and method, or a webhook event. */
export interface OperationPlace {
  method: string;
  /** The path, or the event name for a webhook. */
  path: string;
  webhook: boolean;
}

/** The anchor id of the operation with `operationId`. */
export function operationAnchor(operationId: string): string {
  return anchorId("op", operationId);
}

/** Renders the operations of one document. */
export class OperationView {
  #doc: Json;
  #view: SchemaView;

  constructor(doc: Json, view: SchemaView) {
    this.#doc = doc;
    this.#view = view;
  }

  /** `node` with a `$ref` to another component followed. */
  deref(node: Json): Json {
    let n = node;
    for (let hops = 0; typeof n.$ref === "string" && hops < 8; hops++) n = resolvePointer(this.#doc, n.$ref) ?? {};
    return n;
  }

  /** The section of one operation. */
  render(place: OperationPlace, op: Json): string {
    const id = operationAnchor(String(op.operationId));
    const scope = op["x-required-scope"];
    const publicOp = Array.isArray(op.security) && op.security.length === 0;
    // An operation that takes any one of several scopes (the summary: a part per scope held).
    const anyOf = Array.isArray(op["x-any-of-scopes"]) ? (op["x-any-of-scopes"] as unknown[]).filter((x): x is string => typeof x === "string") : [];
    const access = place.webhook
      ? '<span class="badge">sent to your endpoint</span>'
      : typeof scope === "string" ? `<span class="badge scope">scope ${code(scope)}</span>`
      : anyOf.length > 0 ? `<span class="badge scope">any scope of ${anyOf.map((x) => code(x)).join(", ")}</span>`
      : publicOp ? '<span class="badge public">public: no token</span>'
      : _anyToken(op.security) ? '<span class="badge scope">any valid token, no scope</span>' : "";
    const params = ((op.parameters ?? []) as Json[]).map((p) => this.deref(p));
    const body = op.requestBody ? this.deref(op.requestBody as Json) : undefined;
    const responses = Object.entries((op.responses ?? {}) as Record<string, Json>)
      .map(([status, r]) => [status, this.deref(r)] as const)
      .sort(([a], [b]) => _statusOrder(a) - _statusOrder(b));
    const errors = responses.filter(([, r]) => this.#errorCodes(r).length > 0);
    const others = responses.filter(([, r]) => this.#errorCodes(r).length === 0);
    const download = others.some(([, r]) => Object.keys((r.content ?? {}) as Json).some((m) => m !== MEDIA_JSON));
    const parts = [
      `<section class="op" id="${id}">`,
      `<h3><span class="method m-${escapeHtml(place.method.toLowerCase())}">${escapeHtml(place.method)}</span> <span class="path">${escapeHtml(place.path)}</span></h3>`,
      `<p class="summary">${inline(String(op.summary ?? ""))} ${access} <span class="opid">${code(String(op.operationId))}</span></p>`,
      typeof op.description === "string" ? prose(op.description) : "",
      this.#parameters(params),
      body ? this.#requestBody(body) : "",
      this.#responses(others),
      this.#errors(errors),
      place.webhook ? "" : `<h4>Example</h4><pre class="code" data-lang="sh"><code>${escapeHtml(curlExample(this.#view, {
        method: place.method, path: place.path, parameters: params, ...(body ? { requestBody: body } : {}),
        authenticated: !publicOp, download, // a token for every operation that is not public, whatever its scopes
      }))}</code></pre>`,
      "</section>",
    ];
    return parts.join("");
  }

  #parameters(params: Json[]): string {
    if (params.length === 0) return "";
    const rows = params.map((p) => {
      const schema = (p.schema ?? {}) as Json;
      const mark = p.required === true ? ' <span class="req">required</span>' : "";
      return `<tr><td class="field">${code(String(p.name))}${mark}</td><td>${escapeHtml(String(p.in))}</td><td class="ftype">${this.#view.typeHtml(schema)}</td><td>${typeof p.description === "string" ? `<span class="desc">${inline(p.description)}</span> ` : ""}${this.#view.notesHtml(schema)}</td></tr>`;
    });
    return `<h4>Parameters</h4><table class="fields params"><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  #requestBody(body: Json): string {
    const out = [`<h4>Request body${body.required === true ? "" : " (optional)"}</h4>`];
    if (typeof body.description === "string") out.push(prose(body.description));
    for (const [media, m] of Object.entries((body.content ?? {}) as Record<string, Json>)) {
      out.push(`<p class="media">${code(media)}${this.#schemaLink((m.schema ?? {}) as Json)}</p>`, this.#view.shapeHtml((m.schema ?? {}) as Json));
    }
    return out.join("");
  }

  #responses(list: (readonly [string, Json])[]): string {
    if (list.length === 0) return "";
    const rows = list.map(([status, r]) => {
      const headers = Object.entries((r.headers ?? {}) as Record<string, Json>).filter(([name]) => !COMMON_HEADERS.has(name.toLowerCase()));
      const headerHtml = headers.length === 0 ? "" : `<ul class="headers">${headers.map(([name, h]) => `<li>${code(name)}: ${inline(String(this.deref(h).description ?? ""))}</li>`).join("")}</ul>`;
      const content = Object.entries((r.content ?? {}) as Record<string, Json>);
      const bodies = content.map(([media, m]) => {
        const schema = (m.schema ?? {}) as Json;
        const shape = media === MEDIA_JSON
          ? `<details open class="shape"><summary>Fields${this.#schemaLink(schema)}</summary>${this.#view.shapeHtml(schema)}</details>`
          : "";
        return `<p class="media">${code(media)}${media === MEDIA_JSON ? "" : ` ${this.#view.notesHtml(schema)}`}</p>${shape}`;
      }).join("");
      return `<tr><td class="status">${escapeHtml(status)}</td><td>${inline(String(r.description ?? ""))}${headerHtml}${bodies}</td></tr>`;
    });
    return `<h4>Responses</h4><table class="fields responses"><thead><tr><th>Status</th><th>Meaning</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  #errors(list: (readonly [string, Json])[]): string {
    if (list.length === 0) return "";
    const rows = list.flatMap(([status, r]) => {
      const extra = Object.keys((r.headers ?? {}) as Json).filter((h) => h === "Retry-After" || h === "Allow");
      return this.#errorSchemas(r).map((schema) => {
        const c = errorCodeOf(schema)!;
        const headers = extra.length > 0 ? ` <span class="limits">With ${extra.map((h) => code(h)).join(", ")}</span>` : "";
        return `<tr><td class="status">${escapeHtml(status)}</td><td class="field">${link(errorAnchor(c), code(c))}</td><td>${inline(String(schema.description ?? ""))}${headers}</td></tr>`;
      });
    });
    return `<h4>Errors</h4><table class="fields errors"><thead><tr><th>Status</th><th>Code</th><th>When</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  /** The error codes a response's JSON body can carry (none for success bodies). */
  #errorCodes(r: Json): string[] {
    return this.#errorSchemas(r).map((s) => errorCodeOf(s)!);
  }

  /** The resolved error body schemas of a response, one per code. */
  #errorSchemas(r: Json): Json[] {
    const schema = ((r.content as Record<string, Json> | undefined)?.[MEDIA_JSON]?.schema ?? null) as Json | null;
    if (!schema) return [];
    const resolved = this.#view.resolve(schema);
    const members = Array.isArray(resolved.oneOf) ? (resolved.oneOf as Json[]) : [schema];
    return members.map((m) => this.#view.resolve(m)).filter((m) => errorCodeOf(m) !== null);
  }

  #schemaLink(schema: Json): string {
    const name = refName(schema);
    return name === null ? "" : `: ${link(schemaAnchor(name), escapeHtml(name))}`;
  }
}

/** Sort key of a response status: `2XX` with the 200s, `default` last (object keys put integers first). */
function _statusOrder(status: string): number {
  if (status === "default") return 1000;
  const n = Number(status.replace(/X/gi, "0"));
  return Number.isFinite(n) ? n : 999;
}

/** True for security requirements that name no scope at all (`[{"ApiToken": []}]`): any valid token will do. */
function _anyToken(security: unknown): boolean {
  return Array.isArray(security) && security.length > 0 && security.every((r) => r !== null && typeof r === "object" && Object.values(r as Json).every((v) => Array.isArray(v) && v.length === 0));
}
