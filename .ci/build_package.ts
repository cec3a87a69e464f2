/**
 * Builds what the npm package ships (README "Embedding the core"): dist/ with the JavaScript and declarations
 * `tsc -p tsconfig.build.json` compiles from lib/, storage/ and server.ts, and beside them the files the code reads
 * at run time (fonts, XML Schemas, demo invoices: every file of lib/ and storage/ that is not TypeScript), so that
 * `new URL("./…", import.meta.url)` finds them in dist/ as it does in the sources. `npm pack` runs it (prepack).
 * It does not pack or publish; the package's `files` in package.json say what of dist/ ships.
 * @module
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist");
/** The folders whose non-TypeScript files the code reads at run time. */
const DATA_ROOTS = ["lib", "storage"];
/** The package's command (package.json `bin`): a shebang makes it runnable as `integrator-api`. */
const BIN = join(OUT, "server.js");

/** Every file under `dir`, as paths relative to ROOT; dotfiles are left out. */
function _files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).filter((e) => !e.name.startsWith(".")).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? _files(path) : [path];
  });
}

/**
 * tsc rewrites `.ts` specifiers to `.js` in the JavaScript it emits but not in declarations (they may keep `.ts`,
 * which TypeScript 5 reads but other tools and older compilers do not): the declarations name the `.js` files that
 * ship, as their `.d.ts` siblings resolve them.
 */
function _rewriteDeclarations(): void {
  for (const file of _files(relative(ROOT, OUT)).filter((f) => f.endsWith(".d.ts"))) {
    const path = join(ROOT, file);
    const text = readFileSync(path, "utf8");
    const rewritten = text.replace(/(\bfrom |\bimport\()(["'])(\.{1,2}\/[^"'\n]*?)\.ts\2/g, "$1$2$3.js$2");
    if (rewritten !== text) writeFileSync(path, rewritten);
  }
}

rmSync(OUT, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const built = spawnSync(process.execPath, [tsc, "-p", join(ROOT, "tsconfig.build.json")], { stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);
_rewriteDeclarations();
for (const file of DATA_ROOTS.flatMap(_files).filter((f) => !f.endsWith(".ts"))) {
  mkdirSync(dirname(join(OUT, file)), { recursive: true });
  copyFileSync(join(ROOT, file), join(OUT, file));
}
writeFileSync(BIN, `#!/usr/bin/env node\n${readFileSync(BIN, "utf8")}`);
chmodSync(BIN, 0o755);
