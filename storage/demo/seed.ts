/**
 * The demo's sample invoices (this folder, see SOURCES.md) copied into a
 * tenant's inbox on a first start, so the first request already lists
 * documents. The demo's token is the caller's: it goes through the token store.
 * @module
 */
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const DEMO_DIR = dirname(fileURLToPath(import.meta.url));

/** Copies the sample invoices (`*.xml`, and `*.json` metadata of one whose XML has not arrived) into the inbox. */
export function seedDemoInbox(dataDir: string, tenant: string): void {
  const inbox = join(dataDir, "inbox", tenant);
  mkdirSync(inbox, { recursive: true });
  for (const name of readdirSync(DEMO_DIR)) {
    if (name.endsWith(".xml") || name.endsWith(".json")) copyFileSync(join(DEMO_DIR, name), join(inbox, name));
  }
}
