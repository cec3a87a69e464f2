/**
 * `<data>/sources.json`, the per-tenant list of configured document sources:
 * `{"acme": [{"name": "erp", "type": "http", "url": "https://…", "token": "…"}]}`.
 * Read and checked as a whole: tenant ids and source names are validated like
 * tenant ids, since both name folders and files (a name like `../x` would write
 * outside the tenant's folder). A bad file is refused at startup with a message
 * naming the entry, and so is an entry whose `type` is none of
 * the known ones (the list is named). Each type checks its own fields
 * (`SourceType.parse`, in the source's own module).
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SourceType } from "../../lib/contracts/document_source.ts";
import { isValidTenantId } from "../../lib/contracts/ids.ts";

/** One configured source of a tenant: its type and the entry as that type checked it. */
export interface SourceConfig {
  type: string;
  config: { name: string };
}

/** The name the built-in inbox source has: a configured source may not take it. */
const INBOX = "inbox";

function _refuse(path: string, where: string, what: string): never {
  throw new RangeError(`${path}: ${where} ${what}`);
}

/**
 * The configured sources by tenant, `{}` when the file does not exist; throws RangeError naming what is wrong.
 * `types` are the known source types by name.
 */
export function readSourcesFile(dataDir: string, types: Readonly<Record<string, SourceType<{ name: string }>>>): Record<string, SourceConfig[]> {
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
  const out: Record<string, SourceConfig[]> = {};
  for (const [tenant, list] of Object.entries(all as Record<string, unknown>)) {
    if (!isValidTenantId(tenant)) _refuse(path, JSON.stringify(tenant), "is not a valid tenant id (lower-case letters, digits, - and _)");
    if (!Array.isArray(list)) _refuse(path, tenant, "must be a list of sources");
    const seen = new Set<string>([INBOX]);
    out[tenant] = list.map((s: unknown, i): SourceConfig => {
      const where = `${tenant}[${i}]`;
      if (!s || typeof s !== "object" || Array.isArray(s)) _refuse(path, where, "must be an object");
      const { name, type } = s as Record<string, unknown>;
      if (typeof name !== "string" || !isValidTenantId(name)) {
        _refuse(path, `${where}.name ${JSON.stringify(name)}`, "is not a valid source name (lower-case letters, digits, - and _, at most 63)");
      }
      if (seen.has(name)) _refuse(path, `${where}.name "${name}"`, "is used twice (or is the built-in inbox)");
      seen.add(name);
      if (typeof type !== "string") _refuse(path, `${where}.type`, "is required");
      const known = Object.hasOwn(types, type) ? types[type] : undefined;
      if (!known) _refuse(path, `${where}.type ${JSON.stringify(type)}`, `is not a known source type (known: ${Object.keys(types).join(", ")})`);
      return { type, config: known.parse(s as Record<string, unknown>, where) };
    });
  }
  return out;
}
