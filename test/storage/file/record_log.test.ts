import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { NO_DAY, RecordLog, type SlotColumns } from "../../../storage/file/record_log.ts";

const cols = (): SlotColumns => ({ time: 0, day: NO_DAY, h: [0, 0, 0, 0], c: [0, 0, 0, 0] });
const enc = new TextEncoder();
const dec = new TextDecoder();

test("RecordLog grows past any slot-buffer size and keeps every record across a reopen", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "rlog-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const N = 120_000; // past the 88,574 records where a byte-based growth once broke the typed-array views
  let log = new RecordLog(dir, "t", { durable: false, columnsOf: cols });
  for (let i = 0; i < N; i++) log.write(i, enc.encode(`{"i":${i}}`), cols());
  log.write(7, enc.encode('{"i":"seven"}'), cols());
  log.flush();
  assert.equal(log.count, N);
  assert.equal(log.feedLength, N + 1);
  log.close();
  log = new RecordLog(dir, "t", { durable: false, columnsOf: cols });
  assert.equal(log.count, N);
  assert.equal(dec.decode(log.read(N - 1)), `{"i":${N - 1}}`);
  assert.equal(dec.decode(log.read(7)), '{"i":"seven"}');
  assert.equal(log.latestSeq(7), N);
  const [first, second] = log.rawFeed(7, 2);
  assert.equal(first!.first, true);
  assert.equal(dec.decode(log.readVersion(first!)), '{"i":7}');
  assert.equal(second!.ordinal, 8);
  log.close();
});
