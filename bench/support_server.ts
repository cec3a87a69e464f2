/**
 * The server child process of the HTTP benchmarks, started by bench/support.ts.
 * Modes, each printing one JSON line `{"msg":"listening","url":…}` on stdout once it accepts:
 *   app DATA_DIR      the real app over an existing data directory: auth on, rate limits off, a log line per
 *                     request on stdout as server.ts writes it; `open_ms` in the listening line is storage open +
 *                     app + sync resume (opens every tenant)
 *   bytes FILE TYPE   bare node:http answering every request with FILE's bytes, read once into a Buffer
 *   stream FILE TYPE  bare node:http streaming FILE with fs.createReadStream on every request
 * The bare modes are the baselines: the least any node:http server can do for the same bytes.
 * @module
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import process from "node:process";
import { createApp } from "../lib/app.ts";
import { toNodeListener } from "../lib/http/node_adapter.ts";
import { createJsonLogger } from "../lib/observe/log.ts";
import { Metrics } from "../lib/observe/metrics.ts";
import { FileStorage } from "../storage/file/store.ts";
import { createStdoutLog } from "../storage/process/log_output.ts";
import { readPdfFontFiles } from "../storage/fonts/font_files.ts";

// The same socket settings as server.ts, so that the app child differs from `npm start` only in its flags.
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 120_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

const write = (line: string): void => void process.stdout.write(line);

async function appListener(dataDir: string): Promise<{ listener: RequestListener; info: Record<string, unknown> }> {
  const t0 = performance.now();
  const storage = new FileStorage(dataDir);
  const metrics = new Metrics();
  const logger = createJsonLogger("info", createStdoutLog({ metrics }).write);
  const app = await createApp({ storage, logger, metrics, rateLimit: null, anonymousLimit: null, pdfFonts: readPdfFontFiles() });
  // server.ts logs "listening" first and resumes sync runs after, which opens every tenant's store. Here
  // resume comes first, so that the startup figure is the time until requests are served at full speed.
  await app.sync.resume();
  const openMs = performance.now() - t0;
  process.on("SIGTERM", () => {
    void app.close().then(() => storage.close()).then(() => process.exit(0));
  });
  return { listener: toNodeListener(app.handle) as unknown as RequestListener, info: { open_ms: Math.round(openMs) } };
}

function bytesListener(file: string, type: string): RequestListener {
  const body = readFileSync(file);
  const headers = { "content-type": type, "content-length": String(body.length) };
  return (_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  };
}

function streamListener(file: string, type: string): RequestListener {
  return (_req, res) => {
    // Stat per request, as a file server must: the file may change between requests.
    const size = statSync(file).size;
    res.writeHead(200, { "content-type": type, "content-length": String(size) });
    createReadStream(file).pipe(res);
  };
}

async function main(): Promise<void> {
  const [mode, arg, extra] = process.argv.slice(2);
  if (!arg) throw new RangeError("usage: support_server.ts app DATA_DIR | bytes FILE TYPE | stream FILE TYPE");
  let listener: RequestListener;
  let info: Record<string, unknown> = {};
  if (mode === "app") ({ listener, info } = await appListener(arg));
  else if (mode === "bytes") listener = bytesListener(arg, extra ?? "application/octet-stream");
  else if (mode === "stream") listener = streamListener(arg, extra ?? "application/octet-stream");
  else throw new RangeError(`Unknown mode: ${mode}`);
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS },
    listener,
  );
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  if (mode !== "app") process.on("SIGTERM", () => process.exit(0));
  write(`${JSON.stringify({ msg: "listening", url: `http://127.0.0.1:${port}`, ...info })}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
