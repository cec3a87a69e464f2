/**
 * Deno's `deno test` has no per-test time limit, and its node:test layer registers every top-level `test()` and
 * `describe()` through `Deno.test`. `.ci/run` preloads this module (`deno test --preload`) so that each of them fails
 * after TEST_TIMEOUT_MS (default 300 s) with its name, instead of holding the run until CI's own limit.
 * Node's runner has this built in: `--test-timeout`.
 * @module
 */
interface TestDefinition {
  name: string;
  fn: (t: unknown) => unknown;
}

const deno = (globalThis as { Deno?: { test: (...args: unknown[]) => void; env: { get(name: string): string | undefined } } }).Deno;
if (deno) {
  const limitMs = Number(deno.env.get("TEST_TIMEOUT_MS") ?? 300_000);
  const register = deno.test;
  deno.test = function (this: unknown, definition: unknown, ...rest: unknown[]) {
    const d = definition as TestDefinition | undefined;
    if (d !== null && typeof d === "object" && typeof d.fn === "function") {
      const fn = d.fn;
      definition = {
        ...d,
        fn: (t: unknown) => {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const limit = new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`test timed out after ${limitMs} ms: ${d.name}`)), limitMs);
          });
          return Promise.race([Promise.resolve().then(() => fn(t)), limit]).finally(() => clearTimeout(timer));
        },
      };
    }
    return register.call(this, definition, ...rest);
  };
}
