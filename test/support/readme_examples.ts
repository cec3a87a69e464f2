/**
 * The runnable examples of README.md: its ```ts blocks that start with `// example: NAME`. test/readme.test.ts
 * runs them against the sources, test/package/installed.test.ts against the installed package.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "..");

/** README.md's text. */
export const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The examples by name, each without its `// example:` line. */
export function readmeExamples(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of README.matchAll(/```ts\n\/\/ example: ([a-z-]+)\n([\s\S]*?)```/g)) out.set(m[1]!, m[2]!);
  return out;
}
