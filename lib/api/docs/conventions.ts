/**
 * The conventions part of the reference page: what holds for every operation
 * (authentication and scopes, tenants, idempotency, cursors and page mode,
 * downloads, webhooks and their signing, limits, errors). The wording follows
 * the conventions in /docs, README “Security model”, the contract; the scope and error tables come from the OpenAPI
 * document itself. Prose uses only `backticks` as markup (see html.ts).
 * @module
 */
import { ERROR_STATUS } from "../errors.ts";
import { anchorId, code, escapeHtml, inline, link, prose } from "./html.ts";
import { schemaAnchor, SchemaView, type Json } from "./schema_view.ts";

/** One section of the conventions: its anchor, title and HTML body. */
export interface ConventionSection {
  id: string;
  title: string;
  html: string;
}

/**
 * A receiver's check of a delivery, with node:crypto only (Standard Webhooks, README “Webhooks”).
 * The unit test runs it against the server's own signer.
 */
export const WEBHOOK_VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from "node:crypto";

// secret: the whsec_… value from POST /api/v1/webhooks.
// headers: the request's headers (lower-case names); body: the raw body as a string, before JSON.parse.
export function verifyWebhook(secret, headers, body, toleranceSeconds = 300) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) return false;
  // Refuse old or future messages: a replayed delivery carries an old timestamp.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(\`\${id}.\${timestamp}.\${body}\`).digest();
  // The header may hold several space-separated signatures (e.g. during secret rotation).
  return signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
`;

/** An anchor id for the convention `slug`. */
export function conventionAnchor(slug: string): string {
  return anchorId("conventions", slug);
}

/** The anchor id of the error code `code` in the errors table. */
export function errorAnchor(errorCode: string): string {
  return anchorId("error", errorCode);
}

const _p = (...paragraphs: string[]): string => paragraphs.map((t) => prose(t)).join("");
const _list = (...items: string[]): string => `<ul>${items.map((t) => `<li>${inline(t)}</li>`).join("")}</ul>`;
const _pre = (text: string, language: string): string => `<pre class="code" data-lang="${escapeHtml(language)}"><code>${escapeHtml(text)}</code></pre>`;

/** The sections of the conventions, built for `doc`. */
export function conventionSections(doc: Json, view: SchemaView): ConventionSection[] {
  const s = (slug: string, title: string, html: string): ConventionSection => ({ id: conventionAnchor(slug), title, html });
  return [
    s("basics", "Requests and responses", _p(
      "Every integrator endpoint lives under `/api/v1/`. JSON is UTF-8. Times in responses and webhooks are ISO 8601 UTC with a `Z` and millisecond precision (`2026-11-21T23:25:01.123Z`); calendar dates are `YYYY-MM-DD`.",
      "Money is a decimal string, never a JSON number: `\"1230.00\"`. Amounts are copied from the invoice as written, never recomputed through floating point.",
      "Identifiers are opaque, URL-safe and typed by prefix: `doc_`, `sub_`, `whk_`, `sync_`, `evt_`, `req_`. A path id that is malformed, unknown or belongs to another tenant answers 404 `NOT_FOUND`.",
      "`X-Correlation-Id` is an optional request header: the response to every `/api/v1/*` request carries it, echoing your value or a generated UUID. A value over 128 characters or outside visible ASCII is 400 `BAD_REQUEST`. Every response carries `X-Request-Id` (`req_…`), equal to `error.request_id` in an error body, and `X-Content-Type-Options: nosniff`.",
      "`HEAD` is answered wherever `GET` is. A method the path does not support answers 405 `METHOD_NOT_ALLOWED` with an `Allow` header.",
      "Every JSON answer under `/api/v1/`, errors and 201/202 included, carries `Cache-Control: no-store`: it may hold a tenant's data, which no proxy or browser cache may keep. Downloads have their own rule (below).",
    )),
    s("authentication", "Authentication and scopes", _p(
      "Send the token in the `X-API-Token` header. It is required on every `/api/v1/*` endpoint except `GET /api/v1/openapi.json`; a token in the query string is never used (beside a valid header it is an unknown parameter: 400). Tokens look like `itk_<key id>_<secret>`; the server keeps only a hash of the secret. Tokens are created, listed and revoked from the command line (`npm run token -- create --tenant acme --scopes documents:read,documents:write`), and the secret is printed once. They can carry an expiry and can be revoked.",
      "A missing, unknown, revoked or expired token is 401 `UNAUTHENTICATED` (one answer for all four). A valid token without the operation's scope is 403 `FORBIDDEN` with `details.required_scope`.",
      "`GET /api/v1/token` answers any valid token, whatever its scopes, with what it is: `{\"tenant\", \"key_id\", \"scopes\": […], \"created_at\", \"expires_at\"}` (`expires_at` null when it does not expire), never its secret. Read `scopes` to learn what a token may do instead of trying requests that would be refused.",
    ) + _scopeTable(doc)),
    s("tenants", "Tenants", _p(
      "A token belongs to exactly one tenant (an integrator's organisation). Every resource belongs to one tenant, and a token never sees another tenant's data: another tenant's ids answer 404 like unknown ones. Idempotency keys are scoped to the tenant too.",
    )),
    s("idempotency", "Idempotency", _p(
      "`Idempotency-Key` is optional on every POST and must be a UUID v4 (anything else is 400 `BAD_REQUEST` with `details.field = \"Idempotency-Key\"`). Make one with `node -e 'console.log(crypto.randomUUID())'`.",
      "The first request with a key executes; its response (status, body and `Location`) is kept for 24 hours. A repeat of the same request (same method, path and body meaning) gets that stored response again with `Idempotent-Replayed: true`, and nothing executes twice: no second submission, sync run or webhook.",
      "The same key with a different request is 422 `IDEMPOTENCY_KEY_MISMATCH`; the same key while the first request is still executing is 409 `IDEMPOTENCY_KEY_IN_USE` with `Retry-After: 1`. 5xx answers are not stored (a retry executes again), nor are errors raised before execution (400 on the key itself, 401, 403, 429). Stored keys survive restarts.",
    )),
    s("cursors", "Cursors and page mode", _p(
      "Lists without a `page` parameter are in cursor mode: a change feed in the order in which items last changed, oldest first. Pass `cursor` (the `next_cursor` of the previous page; absent = from the beginning) and `limit`. The answer is `{\"data\": […], \"next_cursor\": \"…\", \"has_more\": …}`. `next_cursor` is always present: after the last page it points past the newest change, so asking again later with it returns only what changed since. Store `next_cursor` only after you have processed the page.",
      "A document that changes again moves to the end of the feed. Delivery is at-least-once: deduplicate by `id`. Cursors are opaque, signed and never expire; a tampered or foreign cursor, or one used with other filters than it was made with, is 400 `BAD_REQUEST` with `details.field = \"cursor\"`.",
      "`GET /api/v1/documents` also has page mode for browsing, chosen by `page`: `per_page` and `sort` apply, and the answer is `{\"data\": […], \"page\", \"per_page\", \"total\", \"total_pages\"}` without a cursor. `page × per_page` may not exceed 10,000 (use cursor mode beyond). Sending both `cursor` and `page` is 400. Filters apply in both modes.",
    )),
    s("downloads", "Downloads", _p(
      "XML and PDF downloads are the raw file, not a JSON envelope: the XML is the exact bytes received, the PDF an A4 rendering of the invoice. While a document's XML is not yet available both answer 404 `XML_NOT_AVAILABLE`.",
      "They carry `Content-Length`, a strong `ETag` (send it back in `If-None-Match` for a 304), `Content-Disposition: attachment` with the invoice number as the file name, and `Cache-Control: private, no-cache`. A single `Range` is answered 206 (416 when unsatisfiable), and `HEAD` works. Use `curl -sf` so that an error is not saved as the file.",
    )),
    s("webhooks", "Webhooks and their signing", _p(
      "Register an endpoint with `POST /api/v1/webhooks` (`url`, `events`, optional `description`; `events` may be `[\"*\"]`). The answer shows the signing secret (`whsec_…`) once. Plain `http:` and private, loopback or link-local targets are refused unless the server allows them (development and tests).",
      "Each event is a `POST` with `content-type: application/json` and the body `{\"type\": …, \"timestamp\": …, \"data\": {…the resource…}}`, signed as Standard Webhooks: `webhook-id` (the event id `evt_…`, the same on every retry), `webhook-timestamp` (unix seconds) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part of the secret after `whsec_`). Any Standard Webhooks library verifies it; with Node alone:",
    ) + _pre(WEBHOOK_VERIFY_SNIPPET, "js") + _p(
      "Delivery is at-least-once from a durable outbox: deduplicate by `webhook-id`. An attempt succeeds on any 2xx within 10 s. Failures are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (with a little jitter); a `Retry-After` from your endpoint is honoured, and redirects are not followed (a 3xx is a failure). After the last failure the endpoint becomes `disabled`; a 410 Gone disables it at once. The event types are listed under Webhook events below.",
    )),
    s("limits", "Limits and their headers", _p(
      "Each token has a token bucket: 600 requests per minute with bursts of 100 by default (the operator may change it or turn it off). Every `/api/v1/*` response carries `RateLimit-Policy` and `RateLimit` headers (IETF httpapi draft form); over the limit the answer is 429 `RATE_LIMITED` with `Retry-After` in seconds. Failed authentications are also limited per client address.",
      "Uploads may be up to 10 MiB and JSON bodies up to 64 KiB by default (413 `PAYLOAD_TOO_LARGE` with `details.limit_bytes`); request headers over the limit are 431.",
    )),
    s("errors", "Errors", _p(
      "Every error body has exactly one top-level key, `error`, holding `code`, `message` (for humans; never stack traces, paths or secrets), `details` (always an object, `{}` when there is nothing to add) and `request_id`:",
    ) + _pre(JSON.stringify({ error: { code: "VALIDATION_ERROR", message: "xml is required", details: { field: "xml", issue: "required" }, request_id: "req_01JD..." } }, null, 2), "json")
      + _errorTable(doc, view)),
  ];
}

/** Scope → the operations that need it, from the document's `x-required-scope` (and `x-any-of-scopes`: any one grants). */
function _scopeTable(doc: Json): string {
  const byScope = new Map<string, string[]>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      const scope = op["x-required-scope"];
      const scopes = typeof scope === "string" ? [scope] : Array.isArray(op["x-any-of-scopes"]) ? (op["x-any-of-scopes"] as unknown[]).filter((x): x is string => typeof x === "string") : [];
      if (typeof op.operationId !== "string") continue;
      for (const s of scopes) {
        const list = byScope.get(s) ?? [];
        list.push(link(anchorId("op", op.operationId), `${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}`));
        byScope.set(s, list);
      }
    }
  }
  const rows = [...byScope].sort(([a], [b]) => a.localeCompare(b)).map(([scope, ops]) => `<tr><td>${code(scope)}</td><td>${ops.join("<br>")}</td></tr>`);
  return `<table class="plain"><thead><tr><th>Scope</th><th>Grants</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** Every code of the document's ErrorCode enum with its status, meaning and details. */
function _errorTable(doc: Json, view: SchemaView): string {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const codes = (schemas.ErrorCode?.enum ?? []) as string[];
  const rows = codes.map((c) => {
    const name = Object.keys(schemas).find((n) => errorCodeOf(view.resolve(schemas[n]!)) === c);
    const schema = name ? view.resolve(schemas[name]!) : {};
    const status = (ERROR_STATUS as Record<string, number>)[c] ?? "";
    const details = ((schema.properties as Json | undefined)?.error as Json | undefined)?.properties as Record<string, Json> | undefined;
    const fields = Object.keys((details?.details as Json | undefined)?.properties ?? {}).map((f) => code(`details.${f}`)).join(" ");
    const title = name ? link(schemaAnchor(name), code(c)) : code(c);
    return `<tr id="${errorAnchor(c)}"><td class="status">${status}</td><td class="field">${title}</td><td>${inline(String(schema.description ?? ""))}${fields ? ` (${fields})` : ""}</td></tr>`;
  });
  return `<table class="plain"><thead><tr><th>Status</th><th>Code</th><th>When</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The `error.code` const of a resolved error body schema, or null. */
export function errorCodeOf(schema: Json): string | null {
  const error = (schema.properties as Record<string, Json> | undefined)?.error;
  const c = (error?.properties as Record<string, Json> | undefined)?.code?.const;
  return typeof c === "string" ? c : null;
}
