/**
 * A program embedding the installed package as a team would write it (README "Embedding the core"): the entry
 * points, the public types, and a server made with createApp on the file store. test/package/installed.test.ts
 * compiles it with `tsc --strict` against the package's declarations and runs the JavaScript on Node 20 and Node 24,
 * and runs it on Deno from the sources through a deno.json. It is not part of the repository's own type check: it
 * imports the package by name. Prints one JSON line of what it saw.
 *
 *   EMBED_DATA=<a data directory with the demo tenant>  EMBED_TOKEN=<the demo token>
 */
import { createServer } from "node:http";
import process from "node:process";
import { createApp, toFetchHandler, toNodeListener, type App, type AppOptions, type DocumentSource, type Storage, type TenantStore } from "integrator-api";
import { FileStorage, type FileStorageOptions } from "integrator-api/stores/file";
import { MemoryStorage } from "integrator-api/stores/memory";
import { PostgresStorage, type PgPool } from "integrator-api/stores/postgres";
import { inboxSource } from "integrator-api/sources/inbox";
import { httpSource, type HttpSourceOptions } from "integrator-api/sources/http";
import { KSEF_ENVIRONMENTS, ksefSource, type KsefSourceOptions } from "integrator-api/sources/ksef";
import { SOURCE_TYPES } from "integrator-api/registry";
import { createHttpTransport } from "integrator-api/transports/webhook-http";
import { readSchemaFiles, schemaSetOf, verdictOf, type ValidationReport } from "integrator-api/validator";
import { PdfFonts, readInvoiceXml, readPdfFontFiles, renderInvoicePdf, type RenderedPdf } from "integrator-api/pdf";

interface DocumentPage {
  data: { id: string; format: string; xml_available: boolean }[];
}

const dir = process.env.EMBED_DATA ?? "./data";
const token = process.env.EMBED_TOKEN ?? "";
const fileOptions: FileStorageOptions = { durable: true };
const storage: Storage = new FileStorage(dir, fileOptions);
const sources = (tenant: string): DocumentSource[] => [inboxSource(`${dir}/inbox`, tenant)];
const options: AppOptions = { storage, sources, pdfFonts: readPdfFontFiles(), schemas: readSchemaFiles(), webhooks: { transport: createHttpTransport(false) } };
const app: App = await createApp(options);
const server = createServer(toNodeListener(app.handle));
await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const get = (path: string): Promise<Response> => fetch(`${base}${path}`, { headers: { "X-API-Token": token } });

const health = await fetch(`${base}/healthz`);
const healthz = `${health.status} ${await health.text()}`;
const page = (await (await get("/api/v1/documents?limit=100")).json()) as DocumentPage;
const withXml = page.data.find((d) => d.xml_available);
if (!withXml) throw new Error(`No demo document with XML: ${JSON.stringify(page)}`);
const pdf = new Uint8Array(await (await get(`/api/v1/documents/${withXml.id}/pdf`)).arrayBuffer());
const xml = new Uint8Array(await (await get(`/api/v1/documents/${withXml.id}/xml`)).arrayBuffer());

// The validator and the renderer on their own, without the API.
const report: ValidationReport = verdictOf(xml, schemaSetOf(readSchemaFiles()));
const rendered: RenderedPdf = renderInvoicePdf(readInvoiceXml(xml), { fonts: new PdfFonts(readPdfFontFiles()) });

// The contract, as a storage adapter's author meets it.
const tenant: TenantStore = storage.tenant("demo");
const changes = await tenant.documentChanges(0, 100, {}, 1000);

// The fetch adapter on the memory store: no token, so 401.
const memoryApp = await createApp({ storage: new MemoryStorage() });
const anonymous = await toFetchHandler(memoryApp.handle)(new Request("http://localhost/api/v1/documents"));

// Typed, not started: these reach other servers.
const upstream: HttpSourceOptions = { name: "upstream", url: "https://invoices.example.com", token: "itk_x", positionFile: `${dir}/upstream.cursor`, maxXmlBytes: 1 << 20 };
const ksef: KsefSourceOptions = { name: "ksef", baseUrl: KSEF_ENVIRONMENTS.test, nip: "5260250274", token: "x", subjects: ["Subject1"], stateFile: `${dir}/ksef.json` };
const makers: ((o: never) => DocumentSource)[] = [httpSource, ksefSource];
const openPostgres: (pool: PgPool) => Promise<PostgresStorage> = (pool) => PostgresStorage.open(pool);

console.log(JSON.stringify({
  healthz,
  documents: page.data.length,
  changes: changes.items.length,
  formats: [...new Set(page.data.map((d) => d.format))].sort(),
  pdf: new TextDecoder().decode(pdf.subarray(0, 5)),
  checks: report.checks,
  rendered: new TextDecoder().decode(rendered.bytes.subarray(0, 5)),
  anonymous: anonymous.status,
  sourceTypes: Object.keys(SOURCE_TYPES).sort(),
  typed: [upstream.name, ksef.name, makers.length, typeof openPostgres],
}));
server.closeAllConnections(); // our fetch's idle keep-alive connection: Deno's node:http waits for it otherwise
await new Promise<void>((closed) => server.close(() => closed()));
await app.close();
await memoryApp.close();
await storage.close();
