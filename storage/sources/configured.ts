/**
 * The document sources a tenant has besides its inbox, read from
 * `<data>/sources.json`: `{"acme": [{"name", "type": "http", "url", "token"}]}`.
 * Each http source keeps its position under `<data>/tenants/<tenant>/sources/`.
 * Entries of other types are ignored here.
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DocumentSource } from "../../lib/contracts/document_source.ts";
import { httpSource } from "./http.ts";

interface _Entry {
  name: string;
  type: string;
  url: string;
  token: string;
}

/** The http sources of `tenant` configured in `dataDir`. */
export function configuredSources(dataDir: string, tenant: string): DocumentSource[] {
  const path = join(dataDir, "sources.json");
  if (!existsSync(path)) return [];
  const all = JSON.parse(readFileSync(path, "utf8")) as Record<string, _Entry[]>;
  return (all[tenant] ?? []).filter((s) => s.type === "http").map((s) => httpSource({
    name: s.name, url: s.url, token: s.token, positionFile: join(dataDir, "tenants", tenant, "sources", `${s.name}.cursor`),
  }));
}
