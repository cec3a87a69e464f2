import { test } from "node:test";
import assert from "node:assert/strict";
import { boundedLogWriter, createJsonLogger } from "../../lib/observe/log.ts";
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
