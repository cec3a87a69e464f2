/**
 * Runs a syntax rule table over a document: compiles the table once (each context's test paths
 * merged into a trie, the `//` paths gathered for one walk, predicates resolved), then one walk
 * over the tree checks each element against the first matching context of each pattern, as
 * Schematron does. Which contexts an element's names fit depends only on the names on its path
 * from the root: that is worked out once per path and kept with the rule set.
 * @module
 */
import { quoteXml } from "../../../xml/errors.ts";
import type { XmlElement } from "../../../xml/tree.ts";
import type { Severity, Violation } from "../../violation.ts";
import type { CodeList } from "../code_lists/code_list.ts";
import type { DocView } from "./doc_view.ts";
import type { ContextAlt, TestPath } from "./paths.ts";
import type { RuleRow, SyntaxTable } from "./table.ts";
import type { TrieHits, TrieNode } from "./trie.ts";
import { AnywherePaths } from "./anywhere.ts";
import { buildDocView } from "./doc_view.ts";
import { compileContext, compileTestPath, contextNamesFit, contextPredsHold, hasPredicates, ownCopy, ruleName, selectPath } from "./paths.ts";
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
  /** For a context that matches only the root and whose trie is plain: its index among the walk-counted tries, else -1. */
  readonly counted: number;
}

/** A context whose names fit an element's path: it matches outright, or when one of its alternatives' predicates hold. */
interface Candidate {
  readonly ctx: CompiledContext;
  /** The alternatives whose names fit, all with predicates; null when one without predicates fits. */
  readonly alts: readonly ContextAlt[] | null;
}

/** What the names on an element's path from the root tell: per pattern, the contexts that may match it. */
export interface PathState {
  readonly ns: string;
  readonly local: string;
  /** Per pattern that has any, its candidates in table order (one that matches outright ends the list). */
  readonly patterns: readonly (readonly Candidate[])[];
  /** The slot of the `//` paths' start names this element fills, -1 for none. */
  readonly slot: number;
  /** Per walk-counted trie, the node this path reaches from the root (null: none); null when none reaches any. */
  readonly nodes: readonly (TrieNode | null)[] | null;
  /** The states of the paths one child further, by local name; null when this state is not kept. */
  readonly next: Map<string, PathState[]> | null;
}

/**
 * How many path states a rule set keeps. An invoice has a few hundred distinct paths; beyond this (a document
 * full of made-up names) the states are computed for each element instead of growing the cache.
 */
const PATH_CACHE_LIMIT = 8192;
/** The longest local name no rule uses that a kept path state may hold. */
const _KEPT_NAME_LENGTH = 64;


/** A compiled rule set for one syntax. */
export interface CompiledSyntax {
  /**
   * The state of the element on top of `stack` (its ancestors below it; `ns` and `local` its names), given its
   * parent's (null for the root).
   */
  stateOf(parent: PathState | null, stack: readonly XmlElement[], ns: string, local: string): PathState;
  /** The rules' `//` paths, whose start elements the walk gathers. */
  readonly anywhere: AnywherePaths;
  /** The tries the walk counts for (CompiledContext.counted). */
  readonly counted: readonly PathTrie[];
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

/** A path rule the trie cannot take checks itself: a `//` path reads what the document-wide walk selected. */
function _selfCheck(path: TestPath, verdict: Verdict, report: number, anywhere: AnywherePaths): SyntaxCheck {
  if (path.anywhere) {
    const index = anywhere.add(path);
    return (el, doc) => {
      const found = anywhere.select(doc)[index]!;
      return verdict(found.length, found[report], el);
    };
  }
  return (el, doc) => {
    const found = selectPath(path, el, doc);
    return verdict(found.length, found[report], el);
  };
}

interface _Compiling {
  readonly fns: Readonly<Record<string, SyntaxCheck>>;
  readonly anywhere: AnywherePaths;
}

function _compileRule(row: RuleRow, c: _Compiling, trie: PathTrie): CompiledRule {
  const [id, severity, kind] = row;
  if (kind === "fn") {
    const check = c.fns[id];
    if (check === undefined) throw new TypeError(`No check function for ${id}`);
    return { id, severity, check, trieIndex: -1, verdict: null, failsOnNone: false };
  }
  if (kind === "code" || kind === "code-upper" || kind === "code-exact") {
    return { id, severity, check: _codeCheck(kind, row[3], row[4]), trieIndex: -1, verdict: null, failsOnNone: false };
  }
  const path = compileTestPath(row[3]);
  const [verdict, report] = _verdict(row);
  if (!PathTrie.accepts(path)) {
    return { id, severity, check: _selfCheck(path, verdict, report, c.anywhere), trieIndex: -1, verdict: null, failsOnNone: false };
  }
  const failsOnNone = kind === "present" || (kind === "exactly" && row[4] > 0);
  return { id, severity, check: null, trieIndex: trie.add(path, report), verdict, failsOnNone };
}

function _compilePattern(rows: SyntaxTable["syntax"], c: _Compiling): CompiledContext[] {
  return rows.map(([context, rules], order): CompiledContext => {
    const trie = new PathTrie();
    const compiled = rules.map((r) => _compileRule(r, c, trie));
    const onHit: CompiledRule[] = [];
    for (const r of compiled) if (r.verdict !== null) onHit[r.trieIndex] = r;
    return {
      order,
      alts: compileContext(context),
      always: compiled.filter((r) => r.verdict === null || r.failsOnNone),
      onHit,
      trie: onHit.length > 0 ? trie : null,
      counted: -1,
    };
  });
}

/** A pattern's candidates for the element on top of `stack`, by the names on its path. */
function _candidates(contexts: readonly CompiledContext[], stack: readonly XmlElement[]): Candidate[] {
  const out: Candidate[] = [];
  for (const ctx of contexts) {
    const fitting = ctx.alts.filter((alt) => contextNamesFit(alt, stack));
    if (fitting.length === 0) continue;
    if (fitting.some((alt) => !hasPredicates(alt))) {
      out.push({ ctx, alts: null });
      break;
    }
    out.push({ ctx, alts: fitting });
  }
  return out;
}

/** The nodes of the walk-counted tries an element reaches, from its parent's (the tries' roots for the root). */
function _nodes(counted: readonly PathTrie[], parent: PathState | null, ns: string, local: string): (TrieNode | null)[] | null {
  if (parent === null) return counted.length === 0 ? null : counted.map((trie) => trie.root);
  const from = parent.nodes;
  if (from === null) return null;
  const nodes = from.map((node) => (node === null ? null : PathTrie.follow(node, ns, local)));
  return nodes.some((node) => node !== null) ? nodes : null;
}

/** Compiles a table with its hand-written checks; throws TypeError on anything it cannot express. */
export function compileSyntax(table: SyntaxTable, fns: Readonly<Record<string, SyntaxCheck>>): CompiledSyntax {
  const ruleIds: string[] = [];
  for (const rows of [table.syntax, table.codes, table.model]) {
    for (const [, rules] of rows) for (const r of rules) ruleIds.push(r[0]);
  }
  const compiling: _Compiling = { fns, anywhere: new AnywherePaths() };
  // The tries of the contexts that match only the root (`/rsm:CrossIndustryInvoice`) reach into most of the
  // document: when their steps are plain, the rule walk counts what they find as it passes, not a walk of their own.
  const counted: PathTrie[] = [];
  const patterns = [table.syntax, table.codes, table.model].map((rows) =>
    _compilePattern(rows, compiling).map((ctx) => {
      const rootOnly = ctx.alts.every((alt) => alt.absolute && alt.steps.length === 1);
      if (ctx.trie === null || !rootOnly || !ctx.trie.plain) return ctx;
      return { ...ctx, counted: counted.push(ctx.trie) - 1 };
    }),
  );
  const roots = new Map<string, PathState[]>();
  let kept = 0;
  return {
    stateOf: (parent, stack, ns, local) => {
      const known = parent === null ? roots : parent.next;
      const same = known?.get(local);
      if (same !== undefined) for (const state of same) if (state.ns === ns) return state;
      // Only paths in the rules' namespaces are kept (elements of others are worked out each time, below them too),
      // with short local names: what the cache holds is bounded in number and length whatever documents come.
      const ownNs = ruleName(ns);
      const ownLocal = ruleName(local) ?? (local.length <= _KEPT_NAME_LENGTH ? ownCopy(local) : undefined);
      const keep = known !== null && kept < PATH_CACHE_LIMIT && ownNs !== undefined && ownLocal !== undefined;
      const found = patterns.map((contexts) => _candidates(contexts, stack)).filter((list) => list.length > 0);
      const slot = compiling.anywhere.slotOf(ns, local);
      const nodes = _nodes(counted, parent, ns, local);
      if (!keep) return { ns, local, patterns: found, slot, nodes, next: null };
      const state: PathState = { ns: ownNs, local: ownLocal, patterns: found, slot, nodes, next: new Map() };
      if (same === undefined) known!.set(state.local, [state]);
      else same.push(state);
      kept++;
      return state;
    },
    anywhere: compiling.anywhere,
    counted,
    ruleIds,
  };
}

function _runContext(ctx: CompiledContext, el: XmlElement, walk: _Walk, out: Violation[]): void {
  const doc = walk.doc;
  const counted = ctx.counted >= 0 && walk.inOrder[ctx.counted] ? walk.hits[ctx.counted]! : null;
  const hits: TrieHits | null = ctx.trie === null ? null : (counted ?? ctx.trie.run(el, doc));
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

/** The first candidate that matches the element on top of `stack`. */
function _firstMatch(candidates: readonly Candidate[], stack: readonly XmlElement[], doc: DocView): CompiledContext | undefined {
  for (const c of candidates) {
    if (c.alts === null) return c.ctx;
    for (const alt of c.alts) if (contextPredsHold(alt, stack, doc)) return c.ctx;
  }
  return undefined;
}

/** Every rule of the compiled set that the document breaks. */
export function runSyntax(compiled: CompiledSyntax, root: XmlElement): Violation[] {
  const stack: XmlElement[] = [root];
  const doc = buildDocView(root, stack);
  const walk: _Walk = {
    stack,
    doc,
    out: [],
    gathered: compiled.anywhere.gathering(),
    carrying: new Map(),
    hits: compiled.counted.map((trie) => trie.start()),
    inOrder: compiled.counted.map(() => true),
  };
  const state = compiled.stateOf(null, stack, root.ns, root.local);
  _gather(state, root, walk);
  for (const kid of root.children) _visit(compiled, kid, state, walk);
  compiled.anywhere.note(doc, walk.gathered);
  doc.noteAttributes(walk.carrying);
  // The root's rules last, once the walk has gathered what their `//` paths start from and counted their tries;
  // the root comes first in document order, and so do its violations.
  const rest = walk.out;
  const out: Violation[] = [];
  _check(state, root, walk, out);
  for (const v of rest) out.push(v);
  return out;
}

interface _Walk {
  readonly stack: XmlElement[];
  readonly doc: DocView;
  readonly out: Violation[];
  /** Per `//` start name slot, and per attribute name (in no namespace), the elements in document order. */
  readonly gathered: XmlElement[][];
  readonly carrying: Map<string, XmlElement[]>;
  /** Per walk-counted trie, what it found so far, and whether its own walk would have found it in the same order. */
  readonly hits: readonly TrieHits[];
  readonly inOrder: boolean[];
}

function _gather(state: PathState, el: XmlElement, walk: _Walk): void {
  if (state.slot >= 0) walk.gathered[state.slot]!.push(el);
  for (const a of el.attrs) {
    if (a.ns !== "") continue;
    const carrying = walk.carrying.get(a.local);
    if (carrying === undefined) walk.carrying.set(a.local, [el]);
    else carrying.push(el);
  }
  const nodes = state.nodes;
  if (nodes === null) return;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node === null) continue;
    PathTrie.count(node, el, walk.hits[i]!);
    if (PathTrie.outOfOrder(node, el)) walk.inOrder[i] = false;
  }
}

/** Checks the element on top of the stack against the first matching context of each pattern. */
function _check(state: PathState, el: XmlElement, walk: _Walk, out: Violation[]): void {
  for (const candidates of state.patterns) {
    const ctx = _firstMatch(candidates, walk.stack, walk.doc);
    if (ctx !== undefined) _runContext(ctx, el, walk, out);
  }
}

function _visit(compiled: CompiledSyntax, el: XmlElement, parent: PathState, walk: _Walk): void {
  const stack = walk.stack;
  stack.push(el);
  const state = compiled.stateOf(parent, stack, el.ns, el.local);
  _gather(state, el, walk);
  _check(state, el, walk, walk.out);
  for (const kid of el.children) _visit(compiled, kid, state, walk);
  stack.pop();
}
