/**
 * The XPath subset of the syntax rule tables, compiled once: rule contexts (match patterns,
 * `a:B/c:D`, `/a:B`, `//a:*[…]`, unions) matched against the ancestor stack of the element in
 * hand, and test paths (`a:B/c:D`, `(a:B|a:C)/d:E`, `//a:B/@x`, predicates) selected from it.
 * Predicates come from the hand-written registry; anything outside the subset is a TypeError.
 * @module
 */
import type { XmlElement } from "../../../xml/tree.ts";
import type { DocView } from "./doc_view.ts";
import type { Predicate } from "./predicates.ts";
import { NAME_TESTS, PREDICATES } from "./predicates.ts";
import { attr, resolveQName } from "./values.ts";

/** One location step: its name test (`null` names: any local name, in `ns` when set) and predicates. */
export interface Step {
  readonly names: readonly (readonly [ns: string, local: string])[] | null;
  readonly ns: string | null;
  readonly preds: readonly Predicate[];
  /** For a wildcard step: a test on the local name every match passes (from its predicates), or null. */
  readonly nameTest: ((local: string) => boolean) | null;
}

/** A compiled test path. */
export interface TestPath {
  /** `//` first: the first step selects from the whole document. */
  readonly anywhere: boolean;
  readonly steps: readonly Step[];
  /** A final `@name` step (attribute in no namespace). */
  readonly attr: string | null;
  /** Each step as written (the trie shares a node between paths with the same step text). */
  readonly texts: readonly string[];
  /** The steps after the first when `anywhere`, else all of them. */
  readonly childSteps: readonly Step[];
}

/** One alternative of a compiled rule context. */
export interface ContextAlt {
  readonly absolute: boolean;
  readonly steps: readonly Step[];
}

/**
 * One string object per name (namespace URI or local name) the rules use, filled as tables compile: a path state
 * is kept only for names found here, so what the cache holds is the rules' own strings, never a document's text
 * (a namespace URI is an attribute value of any length).
 */
const _NAMES = new Map<string, string>();

/** The shared copy of a name the rules use, made as a table compiles. */
export function internName(name: string): string {
  let own = _NAMES.get(name);
  if (own === undefined) {
    own = ownCopy(name);
    _NAMES.set(own, own);
  }
  return own;
}

/** A string of its own: the parser's names can be slices of the whole document, which keeping them would keep. */
export function ownCopy(s: string): string {
  return s.split("").join("");
}

/** The rules' own copy of `name`, or undefined when no compiled rule names it. */
export function ruleName(name: string): string | undefined {
  return _NAMES.get(name);
}

/**
 * Gives every element of the tree whose namespace URI the rules use the rules' own string for it. The parser's URIs
 * are slices of the document's text: each comparison with a rule's name that holds compares their characters, with
 * the same string object it compares pointers (EN 16931 on a 30 KB UBL invoice: about 7 % less CPU, this walk
 * included). The values do not change. An invoice has a few namespaces, each looked up once; past the first
 * _MAX_NAMESPACES a hostile document's further ones are left as they are, so the walk stays linear.
 */
export function shareRuleNamespaces(root: XmlElement): void {
  _share(root, [], []);
}

const _MAX_NAMESPACES = 16;

function _share(el: XmlElement, seen: string[], own: string[]): void {
  let i = seen.indexOf(el.ns);
  if (i < 0 && seen.length < _MAX_NAMESPACES) {
    i = seen.push(el.ns) - 1;
    own.push(ruleName(el.ns) ?? el.ns);
  }
  if (i >= 0) el.ns = own[i]!;
  for (const c of el.children) _share(c, seen, own);
}

/** Splits at `sep` outside brackets and parentheses. */
export function splitTop(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === "[" || ch === "(") depth++;
    else if (ch === "]" || ch === ")") depth--;
    else if (ch === sep && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function _compileStep(text: string): Step {
  const open = text.indexOf("[");
  const nameText = (open < 0 ? text : text.slice(0, open)).trim();
  const preds: Predicate[] = [];
  let nameTest: ((local: string) => boolean) | null = null;
  if (open >= 0) {
    let depth = 0;
    let start = open;
    for (let i = open; i < text.length; i++) {
      if (text[i] === "[") {
        if (depth === 0) start = i + 1;
        depth++;
      } else if (text[i] === "]" && --depth === 0) {
        const predText = text.slice(start, i);
        const pred = PREDICATES.get(predText);
        if (pred === undefined) throw new TypeError(`No predicate for [${predText}]`);
        preds.push(pred);
        nameTest ??= NAME_TESTS.get(predText) ?? null;
      }
    }
  }
  if (nameText === "*") return { names: null, ns: null, preds, nameTest };
  if (nameText.endsWith(":*")) return { names: null, ns: internName(resolveQName(nameText.slice(0, -1) + "x")[0]), preds, nameTest };
  const alts = nameText.startsWith("(") ? nameText.slice(1, -1).split("|") : [nameText];
  const names = alts.map((q): [string, string] => {
    const [ns, local] = resolveQName(q.trim());
    return [internName(ns), internName(local)];
  });
  return { names, ns: null, preds, nameTest: null };
}

/** Compiles a test path such as `cac:Item/cac:ClassifiedTaxCategory` or `//@schemeName`. */
export function compileTestPath(text: string): TestPath {
  let body = text.trim();
  const anywhere = body.startsWith("//");
  if (anywhere) body = body.slice(2);
  const parts = splitTop(body, "/");
  const last = parts[parts.length - 1]!;
  const attrName = last.startsWith("@") ? last.slice(1) : null;
  if (attrName !== null) parts.pop();
  const steps = parts.map(_compileStep);
  return { anywhere, steps, texts: parts.map((t) => t.trim()), attr: attrName, childSteps: anywhere ? steps.slice(1) : steps };
}

/** Compiles a rule context into its union alternatives. */
export function compileContext(text: string): ContextAlt[] {
  return splitTop(text, "|").map((alt) => {
    let body = alt.trim();
    const absolute = body.startsWith("/") && !body.startsWith("//");
    body = body.replace(/^\/\/?/, "");
    return { absolute, steps: splitTop(body, "/").map(_compileStep) };
  });
}

/** True when an element passes a step's name test and predicates. */
export function stepMatches(step: Step, el: XmlElement, doc: DocView): boolean {
  if (step.names === null) {
    if (step.ns !== null && el.ns !== step.ns) return false;
  } else {
    let named = false;
    for (const [ns, local] of step.names) {
      if (el.local === local && el.ns === ns) {
        named = true;
        break;
      }
    }
    if (!named) return false;
  }
  for (const pred of step.preds) if (!pred(el, doc)) return false;
  return true;
}

function _named(names: readonly (readonly [string, string])[], ns: string, local: string): boolean {
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name[1] === local && name[0] === ns) return true;
  }
  return false;
}

function _predsHold(step: Step, el: XmlElement, doc: DocView): boolean {
  for (const pred of step.preds) if (!pred(el, doc)) return false;
  return true;
}

/** True when the names of the element on top of `stack` and of its ancestors below it fit the alternative's steps. */
export function contextNamesFit(alt: ContextAlt, stack: readonly XmlElement[]): boolean {
  const n = alt.steps.length;
  const top = stack.length - 1;
  if (alt.absolute ? stack.length !== n : stack.length < n) return false;
  for (let i = 0; i < n; i++) {
    const step = alt.steps[n - 1 - i]!;
    const el = stack[top - i]!;
    if (step.names === null) {
      if ((step.ns !== null && el.ns !== step.ns) || (step.nameTest !== null && !step.nameTest(el.local))) return false;
    } else if (!_named(step.names, el.ns, el.local)) {
      return false;
    }
  }
  return true;
}

/** True when the alternative's steps have predicates. */
export function hasPredicates(alt: ContextAlt): boolean {
  return alt.steps.some((step) => step.preds.length > 0);
}

/** True when the predicates of the alternative's steps hold on the element on top of `stack` and its ancestors. */
export function contextPredsHold(alt: ContextAlt, stack: readonly XmlElement[], doc: DocView): boolean {
  const n = alt.steps.length;
  const top = stack.length - 1;
  for (let i = 0; i < n; i++) {
    const step = alt.steps[n - 1 - i]!;
    if (step.preds.length > 0 && !_predsHold(step, stack[top - i]!, doc)) return false;
  }
  return true;
}

/**
 * The elements a relative test path selects from `ctx` (for an attribute path: the elements carrying it),
 * in document order within each step.
 */
export function selectPath(path: TestPath, ctx: XmlElement, doc: DocView): XmlElement[] {
  return selectSteps([ctx], path.childSteps, path.attr, doc);
}

/** What `steps` (then the attribute test, if any) select from `level`, in document order within each step. */
export function selectSteps(level: XmlElement[], steps: readonly Step[], attrName: string | null, doc: DocView): XmlElement[] {
  for (const step of steps) {
    const next: XmlElement[] = [];
    for (const el of level) {
      if (step.names === null) {
        for (const kid of el.children) if (stepMatches(step, kid, doc)) next.push(kid);
        continue;
      }
      if (step.names.length === 1) {
        // One name: a scan of the children finds what the index would, in the same order, without building a map
        // for each element (most steps select among a few children, once per document).
        const [ns, local] = step.names[0]!;
        for (const kid of el.children) if (kid.local === local && kid.ns === ns && _predsHold(step, kid, doc)) next.push(kid);
        continue;
      }
      const index = doc.childIndex(el);
      for (const [ns, local] of step.names) {
        const kids = index.get(local);
        if (kids === undefined) continue;
        for (const kid of kids) if (kid.ns === ns && _predsHold(step, kid, doc)) next.push(kid);
      }
    }
    level = next;
    if (level.length === 0) return level;
  }
  return attrName === null ? level : level.filter((el) => attr(el, attrName) !== undefined);
}
