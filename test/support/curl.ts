/**
 * A real `curl` run against a test server, for tests that upload the way clients do (`curl -F`).
 */
import { Buffer } from "node:buffer";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The response of a real `curl` run (asynchronously: the server runs in this process). */
export interface CurlResult {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Runs curl with `args` against `url`, collecting the final response's status, headers and body. */
export function curl(url: string, token: string, args: string[]): Promise<CurlResult> {
  const dir = mkdtempSync(join(tmpdir(), "itest-curl-"));
  const bodyPath = join(dir, "body");
  const headPath = join(dir, "head");
  return new Promise((resolve, reject) => {
    execFile("curl", ["-sS", "-o", bodyPath, "-D", headPath, "-H", `x-api-token: ${token}`, ...args, url], (err, _stdout, stderr) => {
      try {
        if (err) throw new Error(`curl failed: ${stderr}`);
        // The last header block is the final response (after a possible 100 Continue).
        const blocks = readFileSync(headPath, "latin1").split("\r\n\r\n").filter((b) => b.trim() !== "");
        const lines = blocks[blocks.length - 1]!.split("\r\n");
        const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(lines[0]!)![1]);
        const headers: Record<string, string> = {};
        for (const line of lines.slice(1)) {
          const colon = line.indexOf(":");
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        resolve({ status, headers, body: existsSync(bodyPath) ? readFileSync(bodyPath) : Buffer.alloc(0) });
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

