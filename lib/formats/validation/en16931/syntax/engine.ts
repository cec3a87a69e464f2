/**
 * Runs a syntax rule table over a document: compiles the table once (contexts indexed by the
 * local name they end in, each context's test paths merged into a trie, predicates resolved),
 * then one walk over the tree checks each element against the first matching context of each
 * pattern, as Schematron does.
 * @module
 */
import { quoteXml } from "../../../xml/errors.ts";
import type { XmlElement } from "../../../xml/tree.ts";
import type { Severity, Violation } from "../../violation.ts";
import type { CodeList } from "../code_lists/code_list.ts";
import type { DocView } from "./doc_view.ts";
import type { ContextAlt, Step, TestPath } from "./paths.ts";
import type { RuleRow, SyntaxTable } from "./table.ts";
import type { TrieHits } from "./trie.ts";
import { buildDocView } from "./doc_view.ts";
import { compileContext, compileTestPath, contextMatches, contextName, selectPath } from "./paths.ts";
import { PathTrie } from "./trie.ts";
import { attr, stringValue, trimXmlSpace } from "./values.ts";

/** A broken rule found by a check: where, and what to tell the user. */
export interface Finding {
  at: XmlElement;
  message: string;
}

/** A hand-written rule check: `null` when the context element satisfies it. */
export type SyntaxCheck = (el: XmlElement, doc: DocView) => Finding | null;

/** A path rule's verdict from the count of what its path selects (and the match at its report position). */
type Verdict = (count: number, at: XmlElement | undefined, ctx: XmlElement) => Finding | null;

interface CompiledRule {
  readonly id: string;
  readonly severity: Severity;
  /** Checks by itself… */
  readonly check: SyntaxCheck | null;
  /** …or reads its path's hits from the context's trie. */
  readonly trieIndex: number;
  readonly verdict: Verdict | null;
  /** A trie rule that can fail when its path selects nothing (`present`, `exactly n` with n > 0). */
  readonly failsOnNone: boolean;
}

interface CompiledContext {
  readonly order: number;
  readonly alts: readonly ContextAlt[];
  /** Rules checked on every match: hand-written, code lists, self-checking paths, trie rules that fail on none. */
  readonly always: readonly CompiledRule[];
  /** Trie rules that hold when their path selects nothing, by trie index: checked only when it selected something. */
  readonly onHit: readonly CompiledRule[];
  readonly trie: PathTrie | null;
}

/** A pattern: the contexts that may match an element of this local name under a parent of that local name, in table order. */
type CompiledPattern = (parent: string | undefined, local: string) => readonly CompiledContext[];

/**
 * How many (parent, element) name pairs a rule set remembers its candidate contexts for. An invoice
 * uses a few hundred; beyond this (a document full of made-up names) the candidates are computed
 * each time instead of growing the cache.
 */
const CANDIDATE_CACHE_LIMIT = 8192;

/** A compiled rule set for one syntax. */
export interface CompiledSyntax {
  /** Per pattern that has any, the contexts that may match an element (by parent and own local name). */
  candidates(parent: string | undefined, local: string): readonly (readonly CompiledContext[])[];
  /** Every rule id in the table, for coverage checks. */
  readonly ruleIds: readonly string[];
}

function _describe(path: string): string {
  return path.startsWith("@") ? `attribute ${path.slice(1)}` : path.replace(/\/@([A-Za-z]+)$/, " with attribute $1");
}

function _times(n: number): string {
  return n === 1 ? "once" : `${n} times`;
}

/** The verdict of a path rule, and which match (0-based) its report points at. */
function _verdict(row: RuleRow & { 3: string }): [Verdict, number] {
  const what = _describe(row[3]);
  switch (row[2]) {
    case "absent": {
      const message = `${what} ${row[1] === "error" ? "must not" : "should not"} be used in an EN 16931 invoice`;
      return [(count, at) => (count === 0 ? null : { at: at!, message }), 0];
    }
    case "present": {
      const message = `${what} is required here`;
      return [(count, _at, ctx) => (count > 0 ? null : { at: ctx, message }), 0];
    }
    case "max":
    case "exactly": {
      const limit = row[4] as number;
      const exact = row[2] === "exactly";
      const rule = exact ? `exactly ${_times(limit)}` : `at most ${_times(limit)}`;
      const verdict: Verdict = (count, at, ctx) =>
        (exact ? count === limit : count <= limit) ? null : { at: count > limit ? at! : ctx, message: `${what} must occur ${rule} here, found ${count}` };
      return [verdict, limit];
    }
    default:
      throw new TypeError(`Not a path rule: ${row[0]}`);
  }
}

const _XML_SPACE = /[\t\n\r ]/;

function _codeCheck(kind: "code" | "code-upper" | "code-exact", source: string, list: CodeList): SyntaxCheck {
  const name = source === "." ? null : source.slice(1);
  const codes = list.codes;
  return (el) => {
    const raw = name === null ? stringValue(el) : (attr(el, name) ?? "");
    // Most values are listed codes as written: no codes contain whitespace, so a hit needs no normalising.
    if (kind !== "code-upper" && codes.has(raw)) return null;
    if (kind !== "code-exact") {
      let value = trimXmlSpace(raw);
      if (kind === "code-upper") value = value.toUpperCase();
      if (!_XML_SPACE.test(value) && codes.has(value)) return null;
    }
    const subject = name === null ? quoteXml(raw) : `${name} ${quoteXml(raw)}`;
    return { at: el, message: `${subject} is not a valid ${list.title}` };
  };
}

/** A path rule the trie cannot take (a `//` path) checks itself. */
function _selfCheck(path: TestPath, verdict: Verdict, report: number): SyntaxCheck {
  return (el, doc) => {
    const found = selectPath(path, el, doc, Infinity);
    return verdict(found.length, found[report], el);
  };
}

function _compileRule(row: RuleRow, fns: Readonly<Record<string, SyntaxCheck>>, trie: PathTrie): CompiledRule {
  const [id, severity, kind] = row;
  if (kind === "fn") {
    const check = fns[id];
    if (check === undefined) throw new TypeError(`No check function for ${id}`);
    return { id, severity, check, trieIndex: -1, verdict: null, failsOnNone: false };
  }
  if (kind === "code" || kind === "code-upper" || kind === "code-exact") {
    return { id, severity, check: _codeCheck(kind, row[3], row[4]), trieIndex: -1, verdict: null, failsOnNone: false };
  }
  const path = compileTestPath(row[3]);
  const [verdict, report] = _verdict(row);
  if (!PathTrie.accepts(path)) {
    return { id, severity, check: _selfCheck(path, verdict, report), trieIndex: -1, verdict: null, failsOnNone: false };
  }
  const failsOnNone = kind === "present" || (kind === "exactly" && row[4] > 0);
  return { id, severity, check: null, trieIndex: trie.add(path, report), verdict, failsOnNone };
}

function _compilePattern(rows: SyntaxTable["syntax"], fns: Readonly<Record<string, SyntaxCheck>>): CompiledPattern {
  const contexts = rows.map(([context, rules], order): CompiledContext => {
    const trie = new PathTrie();
    const compiled = rules.map((r) => _compileRule(r, fns, trie));
    const onHit: CompiledRule[] = [];
    for (const r of compiled) if (r.verdict !== null) onHit[r.trieIndex] = r;
    return {
      order,
      alts: compileContext(context),
      always: compiled.filter((r) => r.verdict === null || r.failsOnNone),
      onHit,
      trie: onHit.length > 0 ? trie : null,
    };
  });
  // A context can match an element only if its last step accepts the element's name and the step
  // before it the parent's: candidates are computed per (parent name, name) pair, then cached.
  const fits = (step: Step | undefined, local: string | undefined): boolean => {
    if (step === undefined) return true;
    if (local === undefined) return false;
    if (step.names === null) return step.nameTest === null || step.nameTest(local);
    return step.names.some(([, l]) => l === local);
  };
  const compute = (parent: string | undefined, local: string): CompiledContext[] =>
    contexts.filter((ctx) =>
      ctx.alts.some((alt) => fits(alt.steps[alt.steps.length - 1], local) && fits(alt.steps[alt.steps.length - 2], parent)),
    );
  return compute;
}

/** Compiles a table with its hand-written checks; throws TypeError on anything it cannot express. */
export function compileSyntax(table: SyntaxTable, fns: Readonly<Record<string, SyntaxCheck>>): CompiledSyntax {
  const ruleIds: string[] = [];
  for (const rows of [table.syntax, table.codes, table.model]) {
    for (const [, rules] of rows) for (const r of rules) ruleIds.push(r[0]);
  }
  const patterns = [table.syntax, table.codes, table.model].map((rows) => _compilePattern(rows, fns));
  const cache = new Map<string, Map<string, readonly (readonly CompiledContext[])[]>>();
  let cached = 0;
  return {
    candidates: (parent, local) => {
      const key = parent ?? "";
      let forParent = cache.get(key);
      let lists = forParent?.get(local);
      if (lists === undefined) {
        lists = patterns.map((p) => p(parent, local)).filter((list) => list.length > 0);
        if (cached < CANDIDATE_CACHE_LIMIT) {
          if (forParent === undefined) cache.set(key, (forParent = new Map()));
          forParent.set(local, lists);
          cached++;
        }
      }
      return lists;
    },
    ruleIds,
  };
}

function _runContext(ctx: CompiledContext, el: XmlElement, doc: DocView, out: Violation[]): void {
  const hits: TrieHits | null = ctx.trie === null ? null : ctx.trie.run(el, doc);
  for (const rule of ctx.always) {
    const finding = rule.check !== null ? rule.check(el, doc) : rule.verdict!(hits!.counts[rule.trieIndex]!, hits!.at[rule.trieIndex], el);
    if (finding !== null) _report(rule, finding, doc, out);
  }
  if (hits === null) return;
  for (const index of hits.touched) {
    const rule = ctx.onHit[index]!;
    if (rule.failsOnNone) continue;
    const finding = rule.verdict!(hits.counts[index]!, hits.at[index], el);
    if (finding !== null) _report(rule, finding, doc, out);
  }
}

function _report(rule: CompiledRule, finding: Finding, doc: DocView, out: Violation[]): void {
  const at = finding.at;
  out.push({ rule: rule.id, severity: rule.severity, path: doc.pathOf(at), line: at.line, column: at.column, message: finding.message });
}

function _firstMatch(
  candidates: readonly CompiledContext[],
  stack: readonly XmlElement[],
  names: readonly string[],
  doc: DocView,
): CompiledContext | undefined {
  for (const ctx of candidates) {
    for (const alt of ctx.alts) if (contextMatches(alt, stack, names, doc)) return ctx;
  }
  return undefined;
}

/** Every rule of the compiled set that the document breaks. */
export function runSyntax(compiled: CompiledSyntax, root: XmlElement): Violation[] {
  const stack: XmlElement[] = [];
  const doc = buildDocView(root, stack);
  const out: Violation[] = [];
  _visit(compiled, root, { stack, names: [], doc, out });
  return out;
}

interface _Walk {
  readonly stack: XmlElement[];
  /** The stack's local names as the contexts spell them (`contextName`). */
  readonly names: string[];
  readonly doc: DocView;
  readonly out: Violation[];
}

function _visit(compiled: CompiledSyntax, el: XmlElement, walk: _Walk): void {
  const { stack, names } = walk;
  const top = stack.length - 1;
  const parent = top >= 0 ? names[top] || stack[top]!.local : undefined;
  const name = contextName(el.local);
  stack.push(el);
  names.push(name);
  // An element whose name no context step uses can still match a wildcard step: look up by its own name.
  for (const candidates of compiled.candidates(parent, name === "" ? el.local : name)) {
    const ctx = _firstMatch(candidates, stack, names, walk.doc);
    if (ctx !== undefined) _runContext(ctx, el, walk.doc, walk.out);
  }
  for (const kid of el.children) _visit(compiled, kid, walk);
  stack.pop();
  names.pop();
}
