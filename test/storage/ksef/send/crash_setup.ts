/**
 * What the kill -9 tests of sending share: a data directory whose tenant sends to the simulator, a token, and the
 * API calls made against the server before and after the crash.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SendMode } from "../../../../storage/ksef/connection/config.ts";
import { runCli } from "../../../support/child.ts";
import { fa3, NIP, TOKEN } from "./send_setup.ts";

/** A data directory for `server.ts` whose tenant `acme` sends to the simulator at `simUrl`; its token. */
export function crashData(simUrl: string, sendMode: SendMode): { data: string; token: string; remove(): void } {
  const data = mkdtempSync(join(tmpdir(), `ksef-${sendMode}-crash-`));
  writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: simUrl, nip: NIP, token: TOKEN, send: true, send_mode: sendMode }] }));
  const made = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "submissions:read,submissions:write"]);
  assert.equal(made.status, 0, made.stderr);
  return { data, token: made.stdout.trim(), remove: () => rmSync(data, { recursive: true, force: true }) };
}

/** The submissions feed (one page of up to 500), with extra query parameters. */
export async function listSubmissions(url: string, token: string, query = ""): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${url}/api/v1/submissions?limit=500${query}`, { headers: { "x-api-token": token } });
  return ((await res.json()) as { data: Record<string, unknown>[] }).data;
}

/** Uploads an FA(3) invoice numbered `number`; the status, or null when the server is gone. */
export async function uploadInvoice(url: string, token: string, number: string): Promise<number | null> {
  const form = new FormData();
  form.append("xml", new Blob([new Uint8Array(fa3(number))], { type: "application/xml" }), "i.xml");
  const res = await fetch(`${url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": token }, body: form }).catch(() => null);
  return res?.status ?? null;
}

/** The accepted submissions once `count` are (or after about a minute, whatever there are then). */
export async function waitAccepted(url: string, token: string, count: number): Promise<Record<string, unknown>[]> {
  let accepted: Record<string, unknown>[] = [];
  // Another process sends: the feed is polled, as a client would.
  for (let i = 0; i < 3000 && accepted.length < count; i++) {
    accepted = await listSubmissions(url, token, "&ksef_status=accepted");
    if (accepted.length < count) await new Promise((r) => setTimeout(r, 20));
  }
  return accepted;
}
