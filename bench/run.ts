/**
 * Runs the benchmarks one after another (`npm run bench`, or `npm run bench -- xml pdf`),
 * each in its own process so that one's heap and JIT state do not colour the next.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const dir = import.meta.dirname ?? new URL(".", import.meta.url).pathname;
const wanted = process.argv.slice(2);
const benches = readdirSync(dir).filter((f) => f.endsWith(".bench.ts")).filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file}`);
  const r = spawnSync(process.execPath, ["--import", "tsx", join(dir, file)], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
