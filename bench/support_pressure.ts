/**
 * What the pressure benchmarks (bench/upload_pressure.bench.ts, bench/xml_pressure.bench.ts) share: a real
 * server.ts child with a "calm" tenant of 200 synced documents and a second tenant to upload, the calm tenant's
 * timed requests, and the uploading client (bench/support_uploader.ts) in a process of its own, as another
 * tenant's would be: sent from the measuring process, megabytes of uploads would delay its own timers and sockets,
 * and the calm figures would measure the client, not the server.
 * @module
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ChildServer, runCli, startChild } from "../test/support/child.ts";
import { fixturePath } from "../test/support/server.ts";

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/** The server, its data directory, and the tokens of the calm tenant and of the uploading one. */
export interface PressureServer {
  server: ChildServer;
  data: string;
  calm: string;
  uploader: string;
  close(): Promise<void>;
}

/** Starts server.ts over a new data directory in which tenant "calm" has 200 synced UBL documents. */
export async function startPressureServer(prefix: string, uploaderTenant: string): Promise<PressureServer> {
  const data = mkdtempSync(join(tmpdir(), prefix));
  const token = (tenant: string, scopes: string) => runCli(["token", "create", "--data", data, "--tenant", tenant, "--scopes", scopes]).stdout.trim();
  const calm = token("calm", "documents:read,documents:write");
  const uploader = token(uploaderTenant, "submissions:write");
  mkdirSync(join(data, "inbox", "calm"), { recursive: true });
  const sample = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
  for (let i = 0; i < 200; i++) writeFileSync(join(data, "inbox", "calm", `C-${i}.xml`), sample.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>C-${i}</cbc:ID>`));
  const server = await startChild(["--data", data, "--rate-limit", "off", "--demo", "off"]);
  const close = async (): Promise<void> => {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(data, { recursive: true, force: true });
  };
  try {
    await fetch(`${server.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": calm } });
    for (let i = 0; i < 100; i++) {
      const page = (await (await fetch(`${server.url}/api/v1/documents?limit=500`, { headers: { "x-api-token": calm } })).json()) as { data: unknown[] };
      if (page.data.length >= 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { server, data, calm, uploader, close };
}

async function _timed(url: string, headers: Record<string, string>): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - t;
}

/** The calm tenant's cursor page and /healthz, each one request after another, for `seconds`: their latencies. */
export async function calmPhase(url: string, token: string, seconds: number): Promise<{ calm: number[]; healthz: number[] }> {
  const until = performance.now() + seconds * 1000;
  const calm: number[] = [];
  const healthz: number[] = [];
  await Promise.all([
    (async () => {
      while (performance.now() < until) calm.push(await _timed(`${url}/api/v1/documents?limit=50`, { "x-api-token": token }));
    })(),
    (async () => {
      while (performance.now() < until) healthz.push(await _timed(`${url}/healthz`, {}));
    })(),
  ]);
  return { calm, healthz };
}

/** The uploading client's process: the answers so far by status (or "error"), and how to stop it. */
export interface Uploads {
  statuses: Map<string, number>;
  answered(): number;
  stop(): Promise<void>;
}

/**
 * Starts bench/support_uploader.ts uploading `docs` (written to files under `data`), `inFlight` at a time, with
 * `token`; resolves at its first answer, when it is up and sending.
 */
export async function startUploads(url: string, token: string, data: string, docs: readonly Uint8Array[], inFlight: number): Promise<Uploads> {
  const files = docs.map((d, i) => {
    const f = join(data, `upload-${i}.xml`);
    writeFileSync(f, d);
    return f;
  });
  const statuses = new Map<string, number>();
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "support_uploader.ts"), url, token, String(inFlight), ...files], { stdio: ["ignore", "pipe", "inherit"] });
  const ended = new Promise((done) => child.on("exit", done));
  let lines = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    lines += chunk.toString();
    const cut = lines.lastIndexOf("\n") + 1;
    for (const status of lines.slice(0, cut).split("\n").filter(Boolean)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    lines = lines.slice(cut);
  });
  await new Promise<void>((ready) => child.stdout!.once("data", () => ready()));
  return {
    statuses,
    answered: () => [...statuses.values()].reduce((a, b) => a + b, 0),
    async stop() {
      child.kill("SIGTERM");
      await ended;
    },
  };
}
