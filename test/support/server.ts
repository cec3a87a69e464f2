/**
 * A real server on 127.0.0.1 and an ephemeral port, over a temp data directory
 * (or memory), with helpers to mint tokens and drop files into a tenant's
 * inbox. Every HTTP test drives the API through this, as a client would.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type App, type AppOptions } from "../../lib/app.ts";
import { generateToken, SCOPES, type Scope } from "../../lib/auth/tokens.ts";
import { toNodeListener } from "../../lib/http/node_adapter.ts";
import type { Storage } from "../../lib/contracts/storage.ts";
import { FileStorage } from "../../storage/file/store.ts";
import { inboxSource } from "../../storage/sources/inbox.ts";
import { MemoryStorage } from "../../storage/memory.ts";
import { readPdfFontFiles } from "../../storage/fonts/font_files.ts";
import type { TestStore } from "./stores.ts";
import { readSchemaFiles } from "../../storage/schemas/schema_files.ts";

export interface TestServer {
  url: string;
  app: App;
  storage: Storage;
  dataDir: string;
  /** A new token for `tenant` with `scopes` (default: all). */
  token(tenant?: string, scopes?: readonly Scope[], extra?: { expires_at?: string }): Promise<{ token: string; keyId: string }>;
  /** Writes a file into the tenant's inbox. */
  drop(tenant: string, name: string, content: string | Uint8Array): void;
  /** Requests a sync and waits until every run has finished. */
  sync(token: string): Promise<Record<string, unknown>>;
  fetch(path: string, token: string | null, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a server; `storage: "memory"` skips the disk, a TestStore (support/stores.ts) picks any backend. */
export async function startServer(
  options: { storage?: "file" | "memory" | TestStore; dataDir?: string; wrapStorage?: (s: Storage) => Storage } & Omit<Partial<AppOptions>, "storage"> = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "itest-"));
  const inner = typeof options.storage === "object" ? await options.storage.make(dataDir)
    : options.storage === "memory" ? new MemoryStorage() : new FileStorage(dataDir);
  // A test may put itself between the app and the store (to hold one call while others run).
  const storage = options.wrapStorage ? options.wrapStorage(inner) : inner;
  const app = await createApp({
    sources: (tenant) => [inboxSource(join(dataDir, "inbox"), tenant)],
    // Off unless a test is about limits: suites send hundreds of requests with one token.
    rateLimit: null,
    anonymousLimit: null,
    pdfFonts: readPdfFontFiles(),
    schemas: readSchemaFiles(),
    ...options,
    storage,
  });
  const server: Server = createServer(toNodeListener(app.handle));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const addr = server.address();
  const url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  const fetchApi = (path: string, token: string | null, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (token !== null) headers.set("x-api-token", token);
    return fetch(url + path, { ...init, headers });
  };
  return {
    url, app, storage, dataDir,
    async token(tenant = "acme", scopes: readonly Scope[] = SCOPES, extra = {}) {
      const t = generateToken();
      storage.tenant(tenant);
      await storage.tokens.create({
        key_id: t.keyId, tenant, secret_sha256: t.secretSha256, scopes: [...scopes],
        created_at: new Date().toISOString(), expires_at: extra.expires_at ?? null, revoked_at: null,
      });
      return { token: t.token, keyId: t.keyId };
    },
    drop(tenant, name, content) {
      mkdirSync(join(dataDir, "inbox", tenant), { recursive: true });
      writeFileSync(join(dataDir, "inbox", tenant, name), content);
    },
    async sync(token) {
      const res = await fetchApi("/api/v1/documents/sync", token, { method: "POST" });
      const run = (await res.json()) as Record<string, unknown>;
      await app.sync.idle();
      const done = await fetchApi(`/api/v1/documents/sync/${run.id as string}`, token);
      return (await done.json()) as Record<string, unknown>;
    },
    fetch: fetchApi,
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await storage.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The bytes of a fixture file under test/fixtures/. */
export function fixturePath(...parts: string[]): string {
  return join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "fixtures", ...parts);
}
