/**
 * createStdoutLog() in a child process whose stdout and stderr go to one file, as a service manager collects
 * them: the lines held for the end of the turn are written at exit and before an uncaught error's message.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { serverCommand } from "../../support/child.ts";

const LOG_OUTPUT = new URL("../../../storage/process/log_output.ts", import.meta.url).href;
const LOG = new URL("../../../lib/observe/log.ts", import.meta.url).href;

/** Runs `body` after three lines are logged in the same turn; returns the exit code and the combined output. */
function runLogging(t: TestContext, body: string): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "log-output-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "child.mts");
  writeFileSync(file, `import { createStdoutLog } from ${JSON.stringify(LOG_OUTPUT)};
    import { createJsonLogger } from ${JSON.stringify(LOG)};
    const logger = createJsonLogger("info", createStdoutLog().write);
    setTimeout(() => {
      for (const n of [1, 2, 3]) logger.info("line", { n });
      ${body}
    }, 1);`);
  const [cmd, ...args] = serverCommand();
  args[args.length - 1] = file; // the same runtime and loader, another script
  const fd = openSync(join(dir, "output"), "w");
  try {
    const r = spawnSync(cmd!, args, { stdio: ["ignore", fd, fd] });
    return { status: r.status, output: readFileSync(join(dir, "output"), "utf8") };
  } finally {
    closeSync(fd);
  }
}

const THREE_LINES = /^(\{"time":"[^"]+","level":"info","msg":"line","n":\d\}\n){3}/;

test("createStdoutLog() writes the lines of the turn when the process exits in it", (t) => {
  const r = runLogging(t, "process.exit(3);");
  assert.equal(r.status, 3);
  assert.match(r.output, THREE_LINES);
  assert.deepEqual(r.output.trim().split("\n").map((l) => (JSON.parse(l) as { n: number }).n), [1, 2, 3]);
});

test("createStdoutLog() writes the lines of the turn before an uncaught error's message", (t) => {
  const r = runLogging(t, `throw new Error("boom");`);
  assert.notEqual(r.status, 0);
  assert.match(r.output, THREE_LINES, r.output);
  assert.match(r.output, /Error: boom/);
});
