/**
 * The layering rules of README's "How it is built", checked by reading every
 * import of lib/, storage/ and server.ts: a rule broken by a new import fails
 * here before a reviewer has to notice it.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, test } from "node:test";

const ROOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");

function _files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return _files(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** Every module of the project with what it imports: project paths relative to the root, or `node:x`. */
const MODULES = [..._files("lib"), ..._files("storage"), "server.ts"].map((file) => {
  const text = readFileSync(join(ROOT, file), "utf8");
  const imports = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^"';]*?from\s+"([^"]+)"|import\("([^"]+)"\)/g)].map((m) => {
    const spec = (m[1] ?? m[2])!;
    return spec.startsWith(".") ? relative(ROOT, resolve(dirname(join(ROOT, file)), spec)) : spec;
  });
  return { file, text, imports };
});

function violations(from: (file: string) => boolean, forbidden: (target: string, file: string) => boolean): string[] {
  return MODULES.filter((m) => from(m.file)).flatMap((m) => m.imports.filter((t) => forbidden(t, m.file)).map((t) => `${m.file} imports ${t}`));
}

const REGISTRY = "storage/registry.ts";
const under = (dir: string) => (path: string) => path.startsWith(`${dir}/`);
/**
 * The storage implementation a file belongs to: `memory`, `file`, `postgres`, `sources/inbox`, `transports/…`.
 * storage/registry.ts is none: it is where the process finds every implementation by name.
 */
function _implementation(path: string): string | null {
  const parts = path.split("/");
  if (parts[0] !== "storage" || parts.length < 2 || path === REGISTRY) return null;
  if (parts.length === 2) return parts[1] === "atomic.ts" ? null : parts[1]!.replace(/\.ts$/, "");
  if (parts[1] === "sources" || parts[1] === "transports") return `${parts[1]}/${parts[2]!.replace(/\.ts$/, "")}`;
  return parts[1]!;
}

describe("layers", () => {
  test("the module list is not empty (the reader finds the tree)", () => {
    assert.ok(MODULES.length > 50, `${MODULES.length} modules`);
    assert.ok(MODULES.some((m) => m.imports.includes("lib/contracts/storage.ts")));
  });

  test("formats (xml, invoice, pdf, multipart) import nothing but formats and compute-only built-ins", () => {
    assert.deepEqual(violations(under("lib/formats"), (t) => !under("lib/formats")(t) && !["node:buffer", "node:crypto", "node:zlib"].includes(t)), []);
  });

  test("contracts import nothing but contracts and formats' types", () => {
    assert.deepEqual(violations(under("lib/contracts"), (t) => !under("lib/contracts")(t) && !under("lib/formats")(t)), []);
  });

  test("the HTTP plumbing knows nothing of the API, the pipeline, the jobs or the formats", () => {
    assert.deepEqual(violations(under("lib/http"), (t) => ["lib/api", "lib/pipeline", "lib/jobs", "lib/formats", "lib/contracts"].some((d) => under(d)(t))), []);
  });

  test("storage imports contracts and formats, never the API, the pipeline or the HTTP layer", () => {
    assert.deepEqual(violations(under("storage"), (t) => ["lib/api", "lib/pipeline", "lib/http"].some((d) => under(d)(t)) || t === "lib/app.ts"), []);
  });

  test("no storage implementation imports another", () => {
    assert.deepEqual(violations(under("storage"), (t, file) => {
      const a = _implementation(file);
      const b = _implementation(t);
      return a !== null && b !== null && a !== b;
    }), []);
  });

  test("only the process opens implementations by name: nothing in lib/ or storage/ imports the registry", () => {
    assert.deepEqual(violations((f) => under("lib")(f) || under("storage")(f), (t) => t === REGISTRY), []);
  });

  test("lib/ does no I/O: no file system, network or process", () => {
    const io = ["node:fs", "node:fs/promises", "node:http", "node:https", "node:net", "node:dns", "node:child_process", "node:cluster", "node:os"];
    assert.deepEqual(violations(under("lib"), (t) => io.includes(t)), []);
    const process = MODULES.filter((m) => under("lib")(m.file) && /(^|[^.\w])process\.\w/.test(m.text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")));
    assert.deepEqual(process.map((m) => m.file), []);
  });
});
