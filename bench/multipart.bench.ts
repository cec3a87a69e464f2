/**
 * Throughput of lib/multipart.ts on one `xml` part of 10 KB, 1 MB and 20 MB fed in
 * 64 KiB chunks, against a same-run Buffer.indexOf scan of the same chunks for the
 * delimiter (the floor: no parser can look at the bytes less) and the busboy figures
 * measured on this machine before it was dropped (busboy is not a dependency).
 * "async" is parseMultipart() over an async generator of the same chunks.
 * Run: npx tsx bench/multipart.bench.ts [--quick]
 */

import { Buffer } from "node:buffer";
import process from "node:process";
import { MultipartParser, parseMultipart } from "../lib/formats/multipart/parse.ts";

const CHUNK = 64 * 1024;
const BOUNDARY = "----formdata-undici-031415926535"; // the shape undici's FormData writes
/** busboy 1.6 on this machine, 64 KB chunks (MB/s), as measured when this parser was written (it streamed, without buffering parts). */
const BUSBOY: Record<string, number> = { "10 KB": 500, "1 MB": 2600, "20 MB": 2600 };
/**
 * Two contents: invoice-like XML lines (digits and CRLF everywhere, which make the delimiter
 * search skip less) and plain filler text (no digits, no CR), closer to where indexOf peaks.
 */
const CONTENTS = {
  xml: "<Wiersz><P_7>Usługa programistyczna</P_7><P_8B>1.00</P_8B><P_11>1000.00</P_11></Wiersz>\r\n",
  filler: "Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore ",
} as const;
const SIZES = [["10 KB", 10_000], ["1 MB", 1_000_000], ["20 MB", 20_000_000]] as const;
const quick = process.argv.includes("--quick");
const budgetMs = quick ? 120 : 500;
const ROUNDS = 5;
/** Room for the 20 MB body: the bench measures parsing, not the 10 MiB default. */
const LIMITS = { bodyBytes: 32 * 1024 * 1024 };
const delim = Buffer.from(`\r\n--${BOUNDARY}`);
let sink = 0;

function body(content: string, size: number): { chunks: Buffer[]; bytes: number } {
  const part = Buffer.from(content.repeat(Math.ceil(size / Buffer.byteLength(content)))).subarray(0, size);
  const whole = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="xml"; filename="fa.xml"\r\nContent-Type: application/xml\r\n\r\n`),
    part,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const chunks: Buffer[] = [];
  for (let i = 0; i < whole.length; i += CHUNK) chunks.push(whole.subarray(i, i + CHUNK));
  return { chunks, bytes: whole.length };
}

/**
 * Best MB/s of each contender over ROUNDS interleaved rounds of about `budgetMs / ROUNDS`
 * each: interleaving spreads the noise of a shared machine over all of them alike.
 */
async function measure(bytes: number, contenders: Array<() => unknown>): Promise<number[]> {
  const best = contenders.map(() => 0);
  for (const run of contenders) for (let i = 0; i < 3; i++) await run(); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, run] of contenders.entries()) {
      let n = 0;
      const start = performance.now();
      let elapsed = 0;
      while (elapsed < budgetMs / ROUNDS) {
        await run();
        n++;
        elapsed = performance.now() - start;
      }
      best[k] = Math.max(best[k] ?? 0, (bytes * n) / (elapsed / 1000) / 1e6);
    }
  }
  return best;
}

/** Baseline: the delimiter search alone, chunk by chunk. */
function scan(chunks: Buffer[]): void {
  for (const c of chunks) sink += c.indexOf(delim);
}

/** Floor for a parser that hands out one contiguous body: the search plus one copy into fresh memory. */
function scanAndCopy(chunks: Buffer[], bytes: number): void {
  for (const c of chunks) sink += c.indexOf(delim);
  if (chunks.length > 1) sink += Buffer.concat(chunks, bytes).length;
}

function parse(chunks: Buffer[]): void {
  const parser = new MultipartParser(BOUNDARY, (part) => (sink += part.body.length), LIMITS);
  for (const c of chunks) parser.push(c);
  parser.end();
}

async function* stream(chunks: Buffer[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

const col = (s: string, n: number) => s.padStart(n);
console.log(`multipart bench: node ${process.versions.node} (${process.platform} ${process.arch}), ${CHUNK / 1024} KiB chunks${quick ? ", quick" : ""}`);
console.log("MB/s; busboy is the reference figure, not run here");
console.log(
  ["content", "size  ", col("indexOf", 8), col("+copy", 7), col("parser", 7), col("async", 7), col("busboy", 7), col("p/indexOf", 10), col("p/(+copy)", 10), col("p/busboy", 9)].join(" "),
);
// Steady state first: the first frees of large buffers raise malloc's mmap threshold, after
// which big bodies come from reused heap instead of fresh, page-faulting mappings, as in a
// server that has been up for a while. Without this the first rows pay for that alone.
{
  const { chunks, bytes } = body(CONTENTS.filler, 20_000_000);
  for (let i = 0; i < 10; i++) scanAndCopy(chunks, bytes);
}
for (const [name, content] of Object.entries(CONTENTS)) {
  for (const [label, size] of SIZES) {
    const { chunks, bytes } = body(content, size);
    const [base = 0, floor = 0, sync = 0, wrapped = 0] = await measure(bytes, [
      () => scan(chunks),
      () => scanAndCopy(chunks, bytes),
      () => parse(chunks),
      () => parseMultipart(stream(chunks), BOUNDARY, LIMITS),
    ]);
    const busboy = BUSBOY[label] ?? NaN;
    console.log(
      [
        name.padEnd(7),
        label.padEnd(6),
        col(base.toFixed(0), 8),
        col(floor.toFixed(0), 7),
        col(sync.toFixed(0), 7),
        col(wrapped.toFixed(0), 7),
        col(busboy.toFixed(0), 7),
        col(`${(sync / base).toFixed(2)}x`, 10),
        col(`${(sync / floor).toFixed(2)}x`, 10),
        col(`${(sync / busboy).toFixed(2)}x`, 9),
      ].join(" "),
    );
  }
}
if (sink === 42) console.log(""); // keeps the work observable
