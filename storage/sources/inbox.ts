/**
 * The `inbox` document source (API.md §4.5): a drop folder per tenant,
 * `<data>/inbox/<tenant>/`. `NAME.xml` is a document with external id NAME;
 * `NAME.json` without its `.xml` twin is a document whose XML is not yet
 * available. Names starting with `.` or ending in `.tmp`/`.part` are being
 * written and are ignored. Acknowledged files move to `processed/`, rejected
 * ones to `failed/`, so a sync looks only at new files.
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { DocumentSource, SourceItem } from "../../lib/contracts/document_source.ts";
import { fsyncDir } from "../atomic.ts";

const MAX_INBOX_FILE = 64 * 1024 * 1024; // larger files are refused as failed items rather than read

function _ignored(name: string): boolean {
  return name.startsWith(".") || name.endsWith(".tmp") || name.endsWith(".part");
}

function _move(dir: string, to: string, names: string[]): void {
  mkdirSync(join(dir, to), { recursive: true });
  for (const n of names) if (existsSync(join(dir, n))) renameSync(join(dir, n), join(dir, to, n));
  fsyncDir(join(dir, to));
  fsyncDir(dir);
}

/** The inbox source of one tenant. */
export function inboxSource(root: string, tenant: string): DocumentSource {
  const dir = join(root, tenant);
  return {
    name: "inbox",
    async *pull(signal) {
      mkdirSync(dir, { recursive: true });
      const names = new Set(readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && !_ignored(e.name)).map((e) => e.name));
      const stems = [...names]
        .filter((n) => n.endsWith(".xml") || (n.endsWith(".json") && !names.has(`${n.slice(0, -5)}.xml`)))
        .sort();
      for (const name of stems) {
        if (signal.aborted) return;
        const xml = name.endsWith(".xml");
        const stem = name.slice(0, xml ? -4 : -5);
        const files = [name, ...(xml && names.has(`${stem}.json`) ? [`${stem}.json`] : [])];
        const item: SourceItem = {
          external_id: stem, xml: null, metadata: null,
          ack: async () => _move(dir, "processed", files),
          reject: async () => _move(dir, "failed", files),
        };
        try {
          const bytes = readFileSync(join(dir, name));
          if (bytes.length > MAX_INBOX_FILE) item.error = { code: "PAYLOAD_TOO_LARGE", message: `File is larger than ${MAX_INBOX_FILE} bytes` };
          else if (xml) item.xml = bytes;
          else {
            const meta: unknown = JSON.parse(bytes.toString("utf8"));
            if (!meta || typeof meta !== "object" || Array.isArray(meta)) throw new SyntaxError("not an object");
            item.metadata = meta as Record<string, unknown>;
          }
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOENT") continue; // taken away meanwhile
          item.error = { code: "VALIDATION_ERROR", message: xml ? "File cannot be read" : "Metadata file is not a JSON object" };
        }
        yield item;
      }
    },
  };
}
