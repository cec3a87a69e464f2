/**
 * The npm package as its users meet it (README "Embedding the core"): `npm pack` (which builds dist/), the tarball
 * installed into a fresh project with the registry switched off (the package has no dependencies), and there,
 * without tsx: every entry point loaded, `integrator-api --help` and `serve` on an empty data directory, a
 * TypeScript consumer of the public types compiled with `tsc --strict` and run, the README's embedding examples run,
 * on Node 20, Node 24 and Node 26; then Deno, from the sources through deno.json: the consumer type-checked and run, and
 * `deno publish --dry-run` (JSR's checks, which run offline).
 *
 * The installed package is tested once, in the run through tsx (`npm test`, CI's Node 20 run), which starts Node 24,
 * Node 26 and Deno itself from NODE24_BIN, NODE26_BIN and DENO_BIN (.ci/run sets them): without one its part is
 * skipped with the reason, and fails under CI=true. The runs of the suite on Node 24, 26 and Deno check only that
 * the two exports maps agree, which costs nothing.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { startChild, waitForOutput } from "../support/child.ts";
import { listFiles, missingReferences, privateTypesInPublicDeclarations, type PackageExports } from "../support/package_checks.ts";
import { readmeExamples } from "../support/readme_examples.ts";

const ROOT = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  name: string; version: string; exports: PackageExports; bin: Record<string, string>; files: string[]; dependencies?: Record<string, string>;
};
const denoConfig = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8")) as { name: string; version: string; exports: Record<string, string> };
/** The demo tenant's documents: its sample invoices and the one whose XML has not arrived (storage/demo). */
const DEMO_DOCUMENTS = readdirSync(join(ROOT, "storage", "demo")).filter((n) => n.endsWith(".xml") || n.endsWith(".json")).length;
/** Time for one child (a pack with its build, an install, a type check) on a loaded 2-core machine. */
const STEP_MS = 150_000;

test("package.json (compiled, for Node) and deno.json (sources, for Deno) export the same entry points from the same modules", () => {
  assert.deepEqual(Object.keys(manifest.exports), Object.keys(denoConfig.exports));
  for (const [name, source] of Object.entries(denoConfig.exports)) {
    assert.ok(existsSync(join(ROOT, source)), `${name}: ${source} exists`);
    const compiled = `./dist/${source.slice("./".length).replace(/\.ts$/, "")}`;
    assert.deepEqual(manifest.exports[name], { types: `${compiled}.d.ts`, default: `${compiled}.js` }, name);
  }
  assert.deepEqual(manifest.bin, { "integrator-api": "dist/server.js" });
  assert.deepEqual(manifest.files, ["dist/"]);
  assert.deepEqual(Object.keys(manifest.dependencies ?? {}), []);
  assert.equal(denoConfig.version, manifest.version);
});

const deno = "Deno" in globalThis;
const throughTsx = !deno && process.execArgv.some((a) => a.includes("tsx"));
const CI = process.env.CI === "true";

/** A runtime the test starts: its path from `variable`, or why its part is skipped (never under CI=true). */
function runtime(variable: string): { path: string; skip: string | false } {
  const path = process.env[variable] ?? "";
  if (path || CI) return { path, skip: false };
  return { path, skip: `${variable} is not set (.ci/run sets it to the binary it installs)` };
}

interface _Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (or STEP_MS); never throws. */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string | undefined>): Promise<_Ran> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, env, timeout: STEP_MS, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" }, (e, stdout, stderr) => {
      done({ code: e ? (typeof e.code === "number" ? e.code : -1) : 0, stdout, stderr: e && typeof e.code !== "number" ? `${e.message}\n${stderr}` : stderr });
    });
  });
}

/**
 * Our environment without npm's variables (this may run under `npm test`), with npm offline and quiet, no
 * DATABASE_URL (CI sets it for the PostgreSQL tests), and this Node first on PATH, for `npm` and `#!/usr/bin/env node`.
 */
function env(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const own = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
  return {
    ...own, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}`, DATABASE_URL: "", NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1",
    npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", ...extra,
  };
}

/** The last line of a child's output as JSON. */
function lastJson(r: _Ran): Record<string, unknown> {
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

const node24 = runtime("NODE24_BIN");
const node26 = runtime("NODE26_BIN");
const denoBin = runtime("DENO_BIN");

describe("the npm package as installed", { skip: throughTsx ? false : "runs once, in the run through tsx (npm test), which starts Node 24, Node 26 and Deno itself" }, () => {
  let work = "";
  let project = "";
  let installed = "";
  let packed: { filename: string; size: number; unpackedSize: number; entryCount: number; files: { path: string }[] };
  let demo: { data: string; token: string } | null = null;
  let denoConsumer = "";
  let denoChecking: Promise<_Ran> | null = null;
  let publishing: Promise<_Ran> | null = null;
  const nodes: [string, string, string | false][] = [
    [`Node ${process.versions.node}`, process.execPath, false],
    ["Node 24 (NODE24_BIN)", node24.path, node24.skip],
    ["Node 26 (NODE26_BIN)", node26.path, node26.skip],
  ];
  /** What embed.ts prints on the demo data (test/package/consumer/embed.ts). */
  const EMBEDDED = {
    healthz: '200 {"status":"ok"}', documents: DEMO_DOCUMENTS, changes: DEMO_DOCUMENTS, formats: ["cii", "ksef-fa-rr1", "ksef-fa2", "ksef-fa3", "ksef-pef3", "ubl"],
    pdf: "%PDF-", rendered: "%PDF-", anonymous: 401, sourceTypes: ["http", "ksef"], typed: ["upstream", "ksef", 2, "function"],
  };

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "package-"));
    if (!denoBin.skip && denoBin.path) {
      // Deno reads the sources, not dist/: its checks run beside the pack. The consumer's deno.json maps the name as a
      // Deno user does, with the repository linked in place of the published version.
      denoConsumer = join(work, "deno-embedder");
      mkdirSync(denoConsumer);
      writeFileSync(join(denoConsumer, "deno.json"), JSON.stringify({ imports: { [manifest.name]: `jsr:${denoConfig.name}@${denoConfig.version}` }, links: [ROOT] }));
      copyFileSync(join(ROOT, "test", "package", "consumer", "embed.ts"), join(denoConsumer, "embed.ts"));
      denoChecking = run(denoBin.path, ["check", "embed.ts"], denoConsumer, env());
      // JSR's own checks (slow types, what would be published); the type check is the consumer's, which reaches every entry point.
      publishing = run(denoBin.path, ["publish", "--dry-run", "--allow-dirty", "--no-check"], ROOT, env());
    }
    const pack = await run("npm", ["pack", "--json", "--pack-destination", work], ROOT, env());
    assert.equal(pack.code, 0, pack.stderr);
    packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
    project = join(work, "embedder");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "embedder", version: "1.0.0", private: true, type: "module" }));
    const install = await run("npm", ["install", join(work, packed.filename)], project, env());
    assert.equal(install.code, 0, install.stderr);
    installed = join(project, "node_modules", manifest.name);
    // A Node project that compiles TypeScript has @types/node; this one borrows the repository's.
    mkdirSync(join(project, "node_modules", "@types"));
    symlinkSync(join(ROOT, "node_modules", "@types", "node"), join(project, "node_modules", "@types", "node"));
  }, { timeout: 2 * STEP_MS });

  after(async () => {
    await Promise.all([denoChecking, publishing]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test("the tarball holds dist/ and the README, no tests, benches or fixtures, and every file the code reads", (t) => {
    const paths = packed.files.map((f) => f.path);
    t.diagnostic(`${packed.entryCount} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);
    assert.deepEqual(paths.filter((p) => !p.startsWith("dist/") && p !== "README.md" && p !== "package.json"), []);
    assert.deepEqual(paths.filter((p) => /(^|\/)(test|bench|fixtures)\/|\.(test|bench)\.js$/.test(p)), []);
    const sources = ["lib", "storage"].flatMap((d) => listFiles(join(ROOT, d))).filter((f) => !basename(f).startsWith("."));
    const expected = [join(ROOT, "server.ts"), ...sources].map((f) => `dist/${relative(ROOT, f).replace(/\.ts$/, ".js")}`);
    assert.deepEqual(expected.filter((p) => !paths.includes(p)), [], "every module and data file ships");
    assert.ok(!existsSync(join(project, "node_modules", "tsx")), "the project has no tsx");
  });

  test("every shipped module finds the modules it imports and the files it reads", () => {
    assert.deepEqual(missingReferences(installed), []);
  });

  test("the public declarations name only types that an entry point exports", async () => {
    assert.deepEqual(await privateTypesInPublicDeclarations(installed, manifest.exports, [join(project, "node_modules", "@types")]), []);
  });

  test("npx integrator-api --help prints its usage; serve on an empty data directory prints the demo token, which lists the demo documents", async () => {
    const help = await run("npx", ["integrator-api", "--help"], project, env());
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: integrator-api \[serve\] \[options\]\n/);
    assert.doesNotMatch(help.stdout, /server\.ts|tsx/);
    const tokenHelp = await run("npx", ["integrator-api", "token", "--help"], project, env());
    assert.match(tokenHelp.stdout, /^Usage: integrator-api token create --tenant ID/);
    const data = join(work, "data");
    const server = await startChild(["--data", data], { PATH: env().PATH! }, [process.execPath, join(project, "node_modules", ".bin", "integrator-api")]);
    try {
      const [, token] = await waitForOutput(server, /\nexport TOKEN=(itk_[A-Za-z0-9_-]+)\n/);
      const page = (await (await fetch(`${server.url}/api/v1/documents?limit=100`, { headers: { "X-API-Token": token! } })).json()) as { data: unknown[] };
      assert.equal(page.data.length, DEMO_DOCUMENTS);
      demo = { data, token: token! };
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  test("a TypeScript consumer of the public types and the README's embedding examples compile with tsc --strict", async () => {
    copyFileSync(join(ROOT, "test", "package", "consumer", "embed.ts"), join(project, "embed.ts"));
    for (const name of ["embed-node", "embed-deno"]) writeFileSync(join(project, `readme-${name}.ts`), readmeExamples().get(name)!);
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const args = ["--strict", "--module", "nodenext", "--target", "es2022", "--types", "node", "--noEmitOnError", "--outDir", "out"];
    const r = await run(process.execPath, [tsc, ...args, "embed.ts", "readme-embed-node.ts", "readme-embed-deno.ts"], project, env());
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  for (const [label, node, skip] of nodes) {
    describe(`on ${label}, without tsx`, { skip }, () => {
      test("every entry point of package.json loads", async () => {
        assert.ok(node, `CI=true but ${label} is not set: .ci/run sets it`);
        writeFileSync(join(project, "entries.mjs"), `const { exports } = JSON.parse((await import("node:fs")).readFileSync("node_modules/${manifest.name}/package.json", "utf8"));
const out = {};
for (const name of Object.keys(exports)) out[name] = Object.keys(await import("${manifest.name}" + name.slice(1))).length;
console.log(JSON.stringify(out));\n`);
        const counts = lastJson(await run(node, ["entries.mjs"], project, env()));
        assert.deepEqual(Object.keys(counts), Object.keys(manifest.exports));
        assert.deepEqual(Object.entries(counts).filter(([, n]) => !(Number(n) > 0)), [], "each exports something");
      });

      test("the compiled consumer serves the demo documents from createApp on the file store", async () => {
        assert.ok(demo, "the demo data of the serve test");
        const seen = lastJson(await run(node, ["out/embed.js"], project, env({ EMBED_DATA: demo.data, EMBED_TOKEN: demo.token })));
        assert.ok(Array.isArray(seen.checks) && seen.checks.length > 1, `the validator ran the shipped schemas: ${JSON.stringify(seen)}`);
        assert.deepEqual({ ...seen, checks: undefined }, { ...EMBEDDED, checks: undefined });
      });

      test("the README's embedding examples run", async () => {
        const data = mkdtempSync(join(work, "example-"));
        // Node 24 runs the consumer's own TypeScript; Node 20 runs what tsc made of it.
        const file = (name: string): string => (node === process.execPath ? `out/readme-${name}.js` : `readme-${name}.ts`);
        const embedNode = await run(node, [file("embed-node")], project, env({ EXAMPLE_DATA: data }));
        assert.equal(embedNode.code, 0, embedNode.stderr);
        assert.match(embedNode.stdout, /^200 \{"status":"ok"\}/);
        const embedDeno = await run(node, [file("embed-deno")], project, env());
        assert.equal(embedDeno.code, 0, embedDeno.stderr);
        assert.match(embedDeno.stdout, /^401 UNAUTHENTICATED/);
      });
    });
  }

  describe("on Deno, from the sources through deno.json", { skip: denoBin.skip }, () => {
    test("deno check accepts the consumer, and it serves the demo documents", async () => {
      assert.ok(denoChecking, "CI=true but DENO_BIN is not set: .ci/run sets it");
      assert.ok(demo, "the demo data of the serve test");
      const check = await denoChecking;
      assert.equal(check.code, 0, check.stderr);
      const seen = lastJson(await run(denoBin.path, ["run", "-A", "embed.ts"], denoConsumer, env({ EMBED_DATA: demo.data, EMBED_TOKEN: demo.token })));
      assert.deepEqual({ ...seen, checks: undefined }, { ...EMBEDDED, checks: undefined });
    });

    test("deno publish --dry-run accepts the package: no slow types, every export resolvable", async () => {
      assert.ok(publishing, "CI=true but DENO_BIN is not set: .ci/run sets it");
      const r = await publishing;
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr + r.stdout, /Dry run complete/);
    });
  });
});
