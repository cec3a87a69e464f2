/**
 * `<data>/sources.json`, the per-tenant list of configured document sources:
 * `{"acme": [{"name": "erp", "type": "http", "url": "https://…", "token": "…"}]}`.
 * Read and checked as a whole: tenant ids and source names are validated like
 * tenant ids, since both name folders and files (a name like `../x` would write
 * outside the tenant's folder). A bad file is refused at startup with a message
 * naming the entry (issue 15 #3). Entries of other types are checked by name only.
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isValidTenantId } from "../../lib/contracts/ids.ts";

/** One configured source of a tenant. */
export interface SourceConfig {
  name: string;
  type: string;
  url?: string;
  token?: string;
  [field: string]: unknown;
}

/** Hosts that plain `http:` may name: a token sent in clear never leaves the machine. */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** The name the built-in inbox source has: a configured source may not take it. */
const INBOX = "inbox";

function _refuse(path: string, where: string, what: string): never {
  throw new RangeError(`${path}: ${where} ${what}`);
}

/** The configured sources by tenant, `{}` when the file does not exist; throws RangeError naming what is wrong. */
export function readSourcesFile(dataDir: string): Record<string, SourceConfig[]> {
  const path = join(dataDir, "sources.json");
  if (!existsSync(path)) return {};
  let all: unknown;
  try {
    all = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    // The parser's message may quote the file's text, which holds tokens: only where it failed is said.
    const at = /position (\d+)/.exec((e as Error).message);
    _refuse(path, "the file", `is not valid JSON${at ? ` (at character ${at[1]})` : ""}`);
  }
  if (!all || typeof all !== "object" || Array.isArray(all)) _refuse(path, "the file", "must be an object of tenant ids to lists of sources");
  for (const [tenant, list] of Object.entries(all as Record<string, unknown>)) {
    if (!isValidTenantId(tenant)) _refuse(path, JSON.stringify(tenant), "is not a valid tenant id (lower-case letters, digits, - and _)");
    if (!Array.isArray(list)) _refuse(path, tenant, "must be a list of sources");
    const seen = new Set<string>([INBOX]);
    list.forEach((s: unknown, i) => {
      const where = `${tenant}[${i}]`;
      if (!s || typeof s !== "object" || Array.isArray(s)) _refuse(path, where, "must be an object");
      const { name, type, url, token } = s as Record<string, unknown>;
      if (typeof name !== "string" || !isValidTenantId(name)) {
        _refuse(path, `${where}.name ${JSON.stringify(name)}`, "is not a valid source name (lower-case letters, digits, - and _, at most 63)");
      }
      if (seen.has(name)) _refuse(path, `${where}.name "${name}"`, "is used twice (or is the built-in inbox)");
      seen.add(name);
      if (typeof type !== "string") _refuse(path, `${where}.type`, "is required");
      if (type !== "http") return;
      if (typeof url !== "string" || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) _refuse(path, `${where}.url`, "must be an http or https URL");
      const u = new URL(url);
      // Credentials in a URL end up in errors, logs and `sync.failed` webhooks: the token goes in "token". The
      // URL is never quoted here, so neither is the secret.
      if (u.username !== "" || u.password !== "") _refuse(path, `${where}.url`, "must not carry credentials (user:password@); give the token in \"token\"");
      // The token travels in a header: in clear only to this machine, as the KSeF source's "environment".
      if (u.protocol !== "https:" && !LOOPBACK.includes(u.hostname)) _refuse(path, `${where}.url`, "must be an https URL (plain http only for localhost)");
      if (typeof token !== "string" || token.length === 0) _refuse(path, `${where}.token`, "is required");
    });
  }
  return all as Record<string, SourceConfig[]>;
}
