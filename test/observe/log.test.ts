import { test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { batchedLogOutput, boundedLogWriter, createJsonLogger } from "../../lib/observe/log.ts";
import { Metrics } from "../../lib/observe/metrics.ts";

/** A stream whose reader stalls: everything written stays in its backlog until `drain()`. */
function stalledOutput() {
  const taken: string[] = [];
  let held: string[] = [];
  return {
    taken,
    write(line: string) {
      held.push(line);
      return false;
    },
    get writableLength() {
      return held.reduce((n, l) => n + l.length, 0);
    },
    drain() {
      taken.push(...held);
      held = [];
    },
  };
}

test("boundedLogWriter() drops lines past the backlog, counts them, and says so in the next line that gets through", async () => {
  const out = stalledOutput();
  const metrics = new Metrics();
  const logger = createJsonLogger("info", boundedLogWriter(out, { maxBacklog: 1000, metrics, now: () => 0 }), () => 0);
  for (let i = 0; i < 100; i++) logger.info("request", { i });
  assert.ok(out.writableLength <= 1000, `backlog ${out.writableLength} bytes`);
  const kept = out.writableLength;
  out.drain();
  const keptLines = out.taken.length;
  assert.ok(keptLines > 0 && keptLines < 100);
  assert.ok(kept > 900, "the backlog is used up to the bound");
  logger.info("after");
  out.drain();
  const [notice, after] = out.taken.slice(keptLines).map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(notice!.level, "warn");
  assert.equal(notice!.dropped, 100 - keptLines);
  assert.equal(after!.msg, "after");
  assert.match(await metrics.render(), new RegExp(`^log_lines_dropped_total ${100 - keptLines}$`, "m"));
  logger.info("again");
  out.drain();
  assert.equal(out.taken.length, keptLines + 3, "the notice is given once");
});

test("createJsonLogger() writes time, level and msg first, then the fields, one JSON object a line", () => {
  const lines: string[] = [];
  const logger = createJsonLogger("info", (l) => lines.push(l), () => 0);
  logger.info("request", { status: 200, route: null, tenant: "a\"b", skipped: undefined });
  logger.warn("bare");
  logger.info("empty", {});
  logger.error("renamed", { msg: "replaces msg in place", extra: 1 });
  logger.debug("below the level");
  assert.deepEqual(lines, [
    `{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"request","status":200,"route":null,"tenant":"a\\"b"}\n`,
    `{"time":"1970-01-01T00:00:00.000Z","level":"warn","msg":"bare"}\n`,
    `{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"empty"}\n`,
    `{"time":"1970-01-01T00:00:00.000Z","level":"error","msg":"replaces msg in place","extra":1}\n`,
  ]);
});

test("createJsonLogger() writes each field as JSON.stringify would, whatever its value", () => {
  const lines: string[] = [];
  const logger = createJsonLogger("info", (l) => lines.push(l), () => 0);
  const fields: Record<string, unknown> = {
    plain: "req_01ABC", quote: 'say "hi"', backslash: "a\\b", control: "tab\there\u0000", del: "\u007f", polish: "Łódź",
    lone: "\ud800", pair: "😀", zero: 0, minus: -0, float: 1.5, small: 1e-7, big: 1e21, nan: NaN, inf: -Infinity,
    yes: true, no: false, none: null, gone: undefined, fn: () => 1, nested: { a: [1, "x"] }, date: new Date(0), "k\"ey": 1, 7: "seven",
  };
  logger.info("all", fields);
  const rest = JSON.stringify(fields).slice(1, -1);
  assert.equal(lines[0], `{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"all",${rest}}\n`);
  logger.info('a "quoted" msg\n');
  assert.equal(lines[1], `{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":${JSON.stringify('a "quoted" msg\n')}}\n`);
});

test("createJsonLogger() gives each line the time it was written", () => {
  const lines: string[] = [];
  let now = Date.UTC(2026, 0, 1);
  const logger = createJsonLogger("info", (l) => lines.push(l), () => now);
  logger.info("a");
  logger.info("b");
  now += 1;
  logger.info("c");
  assert.deepEqual(lines.map((l) => (JSON.parse(l) as { time: string }).time), ["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.001Z"]);
});

/** An output that records each write, and a schedule that runs its callback only when told. */
function recordingOutput() {
  const writes: string[] = [];
  let scheduled: (() => void)[] = [];
  return {
    writes,
    out: { write: (chunk: string | Uint8Array) => writes.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")), writableLength: 0 },
    schedule: (f: () => void) => void scheduled.push(f),
    endOfTurn() {
      const due = scheduled;
      scheduled = [];
      for (const f of due) f();
      return due.length;
    },
  };
}

test("batchedLogOutput() holds a turn's lines and writes them at its end, in whole lines of at most maxWrite bytes", () => {
  const r = recordingOutput();
  const out = batchedLogOutput(r.out, { schedule: r.schedule, maxWrite: 100 });
  // Multi-byte characters: the cut is counted in bytes, and falls between lines, never inside one.
  const lines = Array.from({ length: 40 }, (_, i) => `{"i":${i},"city":"Łódź ${"x".repeat(i % 7)}"}\n`);
  for (const l of lines) out.write(l);
  assert.equal(r.writes.length, 0, "nothing is written during the turn");
  assert.equal(r.endOfTurn(), 1, "one flush for the turn");
  assert.equal(r.writes.join(""), lines.join(""), "every line, in order");
  assert.ok(r.writes.length < lines.length / 2, `${r.writes.length} writes for ${lines.length} lines`);
  for (const w of r.writes) {
    assert.ok(Buffer.byteLength(w) <= 100, `a write of ${Buffer.byteLength(w)} bytes`);
    assert.ok(w.endsWith("\n") && w.split("\n").slice(0, -1).every((l) => JSON.parse(l)), "whole lines");
  }
  out.write("next turn\n");
  assert.equal(r.endOfTurn(), 1, "the next turn schedules its own flush");
  assert.equal(r.writes.at(-1), "next turn\n");
});

test("batchedLogOutput() writes a turn within maxWrite bytes at once, and cuts one within maxWrite characters but not bytes", () => {
  const r = recordingOutput();
  const out = batchedLogOutput(r.out, { schedule: r.schedule, maxWrite: 100 });
  const ascii = Array.from({ length: 9 }, (_, i) => `{"i":${i}}\n`.padStart(11, " ")); // 99 bytes
  for (const l of ascii) out.write(l);
  r.endOfTurn();
  assert.deepEqual(r.writes, [ascii.join("")]);
  const polish = Array.from({ length: 7 }, (_, i) => `{"ł":"${i}ąę"}\n`); // 84 characters, 105 bytes
  for (const l of polish) out.write(l);
  r.endOfTurn();
  const cut = r.writes.slice(1);
  assert.equal(cut.join(""), polish.join(""));
  assert.ok(cut.length === 2 && cut.every((w) => Buffer.byteLength(w) <= 100 && w.endsWith("\n")), cut.map((w) => Buffer.byteLength(w)).join(", "));
});

test("batchedLogOutput() writes a line longer than maxWrite alone and whole, and writes at once past maxPending", () => {
  const r = recordingOutput();
  const out = batchedLogOutput(r.out, { schedule: r.schedule, maxWrite: 64, maxPending: 1000 });
  const long = `${"y".repeat(200)}\n`;
  out.write("a\n");
  out.write(long);
  out.write("b\n");
  out.flush();
  assert.deepEqual(r.writes, ["a\n", long, "b\n"]);
  r.writes.length = 0;
  for (let i = 0; i < 30; i++) out.write(`${"z".repeat(49)}\n`);
  assert.equal(r.writes.join(""), `${"z".repeat(49)}\n`.repeat(20), "the first 1,000 characters went out without waiting");
  r.endOfTurn();
  assert.equal(r.writes.join(""), `${"z".repeat(49)}\n`.repeat(30));
});

test("boundedLogWriter() over batchedLogOutput() counts the held lines in the backlog", () => {
  const r = recordingOutput();
  const metrics = new Metrics();
  const write = boundedLogWriter(batchedLogOutput(r.out, { schedule: r.schedule }), { maxBacklog: 1000, metrics });
  for (let i = 0; i < 100; i++) write(`${"w".repeat(99)}\n`);
  r.endOfTurn();
  assert.equal(r.writes.join(""), `${"w".repeat(99)}\n`.repeat(10), "held lines count towards the bound");
});
