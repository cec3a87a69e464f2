/**
 * Runs a syntax rule table over a document: compiles the table once (contexts indexed by the
 * local name they end in, paths and predicates resolved), then one walk over the tree checks each
 * element against the first matching context of each pattern, as Schematron does.
 * @module
 */
import type { XmlElement } from "../../../xml/tree.ts";
import type { Severity, Violation } from "../../violation.ts";
import type { CodeList } from "../code_lists/code_list.ts";
import type { DocView } from "./doc_view.ts";
import type { ContextAlt, TestPath } from "./paths.ts";
import type { RuleRow, SyntaxTable } from "./table.ts";
import { buildDocView } from "./doc_view.ts";
import { compileContext, compileTestPath, contextMatches, selectPath } from "./paths.ts";
import { attr, stringValue } from "./values.ts";

/** A broken rule found by a check: where, and what to tell the user. */
export interface Finding {
  at: XmlElement;
  message: string;
}

/** A hand-written rule check: `null` when the context element satisfies it. */
export type SyntaxCheck = (el: XmlElement, doc: DocView) => Finding | null;

interface CompiledRule {
  readonly id: string;
  readonly severity: Severity;
  readonly check: SyntaxCheck;
}

interface CompiledContext {
  readonly order: number;
  readonly alts: readonly ContextAlt[];
  readonly rules: readonly CompiledRule[];
}

interface CompiledPattern {
  /** Candidate contexts (wildcards merged in, in table order) by the element's local name. */
  readonly byLocal: ReadonlyMap<string, readonly CompiledContext[]>;
  readonly wild: readonly CompiledContext[];
}

/** A compiled rule set for one syntax. */
export interface CompiledSyntax {
  readonly patterns: readonly CompiledPattern[];
  /** Every rule id in the table, for coverage checks. */
  readonly ruleIds: readonly string[];
}

function _describe(path: string): string {
  return path.startsWith("@") ? `attribute ${path.slice(1)}` : path.replace(/\/@([A-Za-z]+)$/, " with attribute $1");
}

function _times(n: number): string {
  return n === 1 ? "once" : `${n} times`;
}

function _pathCheck(row: RuleRow & { 3: string }, path: TestPath): SyntaxCheck {
  const what = _describe(row[3]);
  switch (row[2]) {
    case "absent": {
      const verb = row[1] === "error" ? "must not" : "should not";
      const message = `${what} ${verb} be used in an EN 16931 invoice`;
      return (el, doc) => {
        const found = selectPath(path, el, doc, 1)[0];
        return found === undefined ? null : { at: found, message };
      };
    }
    case "present": {
      const message = `${what} is required here`;
      return (el, doc) => (selectPath(path, el, doc, 1).length > 0 ? null : { at: el, message });
    }
    case "max":
    case "exactly": {
      const limit = row[4] as number;
      const exact = row[2] === "exactly";
      return (el, doc) => {
        const found = selectPath(path, el, doc, exact ? Infinity : limit + 1);
        if (exact ? found.length === limit : found.length <= limit) return null;
        const at = found.length > limit ? found[limit]! : el;
        const rule = exact ? `exactly ${_times(limit)}` : `at most ${_times(limit)}`;
        return { at, message: `${what} must occur ${rule} here, found ${found.length}` };
      };
    }
    default:
      throw new TypeError(`Not a path rule: ${row[0]}`);
  }
}

const _XML_SPACE = /[\t\n\r ]/;

function _codeCheck(kind: "code" | "code-upper" | "code-exact", source: string, list: CodeList): SyntaxCheck {
  const name = source === "." ? null : source.slice(1);
  return (el) => {
    const raw = name === null ? stringValue(el) : (attr(el, name) ?? "");
    let value = raw;
    if (kind !== "code-exact") {
      value = raw.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
      if (kind === "code-upper") value = value.toUpperCase();
    }
    if (!_XML_SPACE.test(value) && list.codes.has(value)) return null;
    const subject = name === null ? `'${raw}'` : `${name} '${raw}'`;
    return { at: el, message: `${subject} is not a valid ${list.title}` };
  };
}

function _compileRule(row: RuleRow, fns: Readonly<Record<string, SyntaxCheck>>): CompiledRule {
  const [id, severity, kind] = row;
  let check: SyntaxCheck | undefined;
  if (kind === "fn") {
    check = fns[id];
    if (check === undefined) throw new TypeError(`No check function for ${id}`);
  } else if (kind === "code" || kind === "code-upper" || kind === "code-exact") {
    check = _codeCheck(kind, row[3], row[4]);
  } else {
    check = _pathCheck(row, compileTestPath(row[3]));
  }
  return { id, severity, check };
}

function _compilePattern(rows: SyntaxTable["syntax"], fns: Readonly<Record<string, SyntaxCheck>>): CompiledPattern {
  const contexts = rows.map(([context, rules], order): CompiledContext => ({
    order,
    alts: compileContext(context),
    rules: rules.map((r) => _compileRule(r, fns)),
  }));
  const named = new Map<string, CompiledContext[]>();
  const wild: CompiledContext[] = [];
  for (const ctx of contexts) {
    const locals = new Set<string>();
    let isWild = false;
    for (const alt of ctx.alts) {
      const last = alt.steps[alt.steps.length - 1]!;
      if (last.names === null) isWild = true;
      else for (const [, local] of last.names) locals.add(local);
    }
    if (isWild) wild.push(ctx);
    for (const local of locals) {
      const list = named.get(local) ?? [];
      if (!list.includes(ctx)) list.push(ctx);
      named.set(local, list);
    }
  }
  const byLocal = new Map<string, CompiledContext[]>();
  for (const [local, list] of named) byLocal.set(local, [...list, ...wild].sort((a, b) => a.order - b.order));
  return { byLocal, wild };
}

/** Compiles a table with its hand-written checks; throws TypeError on anything it cannot express. */
export function compileSyntax(table: SyntaxTable, fns: Readonly<Record<string, SyntaxCheck>>): CompiledSyntax {
  const ruleIds: string[] = [];
  for (const rows of [table.syntax, table.codes, table.model]) {
    for (const [, rules] of rows) for (const r of rules) ruleIds.push(r[0]);
  }
  return {
    patterns: [table.syntax, table.codes, table.model].map((rows) => _compilePattern(rows, fns)),
    ruleIds,
  };
}

/** Every rule of the compiled set that the document breaks. */
export function runSyntax(compiled: CompiledSyntax, root: XmlElement): Violation[] {
  const doc = buildDocView(root);
  const out: Violation[] = [];
  const stack: XmlElement[] = [];
  const visit = (el: XmlElement): void => {
    stack.push(el);
    for (const pattern of compiled.patterns) {
      const candidates = pattern.byLocal.get(el.local) ?? pattern.wild;
      for (const ctx of candidates) {
        if (!ctx.alts.some((alt) => contextMatches(alt, stack, doc))) continue;
        for (const rule of ctx.rules) {
          const finding = rule.check(el, doc);
          if (finding === null) continue;
          const at = finding.at;
          out.push({
            rule: rule.id,
            severity: rule.severity,
            path: doc.pathOf(at),
            line: at.line,
            column: at.column,
            message: finding.message,
          });
        }
        break;
      }
    }
    for (const kid of el.children) visit(kid);
    stack.pop();
  };
  visit(root);
  return out;
}
