/**
 * What can be checked of an installed copy of the npm package by reading it (README "Embedding the core"): that
 * every module it ships finds what it names (its relative imports, its declarations' imports, the files it opens
 * with `new URL("./…", import.meta.url)`), and that its public declarations name only types that an entry point
 * exports (what a consumer cannot import by name is a private path leaking through a public type). Each returns
 * the problems as sentences; none means none found.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type ts from "typescript";

/** The `exports` of a package.json: entry point → its declarations and its JavaScript. */
export type PackageExports = Record<string, { types: string; default: string }>;

/** Every file under `dir`, absolute. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

// `from "x"`, `import("x")` and `export … from "x"`; the specifier is group 2.
const _SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*)(["'])([^"'\n]+)\2/g;
const _FILE_URL = /new URL\(\s*(["'])(\.{1,2}\/[^"'\n]*)\1\s*,\s*import\.meta\.url\s*\)/g;
const _STATIC_IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s*(["'])([^"'\n]+)\1/gm;

/**
 * Relative specifiers of shipped JavaScript and declarations that name no shipped file (a declaration's `./x.js`
 * is its `./x.d.ts`), static imports of anything but `node:` built-ins (the package has no dependencies), and
 * files a module opens beside itself that are not there.
 */
export function missingReferences(packageDir: string): string[] {
  const problems: string[] = [];
  for (const file of listFiles(join(packageDir, "dist"))) {
    const isJs = file.endsWith(".js"), isDts = file.endsWith(".d.ts");
    if (!isJs && !isDts) continue;
    const text = readFileSync(file, "utf8");
    const where = relative(packageDir, file);
    for (const m of text.matchAll(_SPECIFIER)) {
      const spec = m[3]!;
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(file), spec);
      const found = isDts ? [target.replace(/\.js$/, ".d.ts"), target].some(existsSync) : existsSync(target);
      if (!found) problems.push(`${where} imports ${spec}, which the package does not have`);
    }
    for (const m of text.matchAll(_STATIC_IMPORT)) {
      const spec = m[2]!;
      if (!spec.startsWith(".") && !spec.startsWith("node:")) problems.push(`${where} imports ${spec}, which is not a dependency of the package`);
    }
    if (isJs) {
      for (const m of text.matchAll(_FILE_URL)) {
        if (!existsSync(resolve(dirname(file), m[2]!))) problems.push(`${where} reads ${m[2]}, which the package does not have`);
      }
    }
  }
  return problems;
}

/**
 * Types named by the declarations of what the entry points export (their members, parameters, results, bases)
 * that no entry point exports, as `Name (file) named by entry:Export`. Reads the declarations with the TypeScript
 * compiler of the repository, as a consumer's would.
 */
export async function privateTypesInPublicDeclarations(packageDir: string, exports: PackageExports, typeRoots: string[]): Promise<string[]> {
  const ts = (await import("typescript")).default;
  const entries = Object.entries(exports).map(([name, e]) => [name, join(packageDir, e.types)] as const);
  const program = ts.createProgram(entries.map(([, file]) => file), {
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, types: ["node"], typeRoots,
  });
  const checker = program.getTypeChecker();
  const target = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const shipped = (d: ts.Node): boolean => d.getSourceFile().fileName.startsWith(join(packageDir, "dist") + "/");
  const exported = new Map<ts.Symbol, string>();
  for (const [name, file] of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!);
    for (const s of module ? checker.getExportsOfModule(module) : []) exported.set(target(s), `${name}:${s.name}`);
  }
  const problems = new Set<string>();
  for (const [symbol, by] of exported) {
    for (const declaration of (symbol.declarations ?? []).filter(shipped)) {
      const visit = (n: ts.Node): void => {
        const named = ts.isTypeReferenceNode(n) ? n.typeName
          : ts.isExpressionWithTypeArguments(n) ? n.expression
          : ts.isTypeQueryNode(n) ? n.exprName
          : ts.isImportTypeNode(n) ? n.qualifier
          : undefined;
        const found = named && checker.getSymbolAtLocation(named);
        const s = found && target(found);
        if (s && !(s.flags & ts.SymbolFlags.TypeParameter) && !exported.has(s) && (s.declarations ?? []).some(shipped)) {
          problems.add(`${s.name} (${relative(packageDir, s.declarations![0]!.getSourceFile().fileName)}) named by ${by}`);
        }
        ts.forEachChild(n, visit);
      };
      visit(declaration);
    }
  }
  return [...problems];
}
