/**
 * The test paths of one rule context merged into a trie, so that the hundreds of "X must not be
 * here" and "at most n" rules of a context cost one walk of the context element's subtree along
 * the trie, not one path evaluation each.
 * @module
 */
import type { XmlElement } from "../../../xml/tree.ts";
import type { DocView } from "./doc_view.ts";
import type { Predicate } from "./predicates.ts";
import type { Step, TestPath } from "./paths.ts";

interface TrieEdge {
  readonly ns: string;
  readonly preds: readonly Predicate[];
  readonly node: TrieNode;
}

interface TrieNode {
  /** Outgoing steps by local name. */
  readonly edges: Map<string, TrieEdge[]>;
  /** Same node for the same step text. */
  readonly byText: Map<string, TrieNode>;
  /** Rules whose path ends here: their index, and the attribute the path ends in, if any. */
  readonly ends: { rule: number; attr: string | null; report: number }[];
}

/** Per rule: how many nodes its path selects, and the one at its report position. */
export interface TrieHits {
  readonly counts: Int32Array;
  readonly at: (XmlElement | undefined)[];
  /** The rules whose path selected anything, each once. */
  readonly touched: number[];
}

/** A trie of test paths; paths are added with the position of the match worth reporting. */
export class PathTrie {
  #root: TrieNode = _node();
  #size = 0;

  #hits: TrieHits = { counts: new Int32Array(0), at: [], touched: [] };

  /** True when the path can go into a trie: child steps with names only, or just an attribute of the context. */
  static accepts(path: TestPath): boolean {
    if (path.anywhere) return false;
    return path.steps.length > 0 ? path.steps.every((s) => s.names !== null) : path.attr !== null;
  }

  /** Adds a path; `report` is the 0-based index of the match to report. Returns the rule's index. */
  add(path: TestPath, report: number): number {
    let node = this.#root;
    path.steps.forEach((step: Step, i) => {
      const text = path.texts[i]!;
      let next = node.byText.get(text);
      if (next === undefined) {
        next = _node();
        node.byText.set(text, next);
        for (const [ns, local] of step.names!) {
          const list = node.edges.get(local) ?? [];
          list.push({ ns, preds: step.preds, node: next });
          node.edges.set(local, list);
        }
      }
      node = next;
    });
    const rule = this.#size++;
    node.ends.push({ rule, attr: path.attr, report });
    this.#hits = { counts: new Int32Array(this.#size), at: new Array<XmlElement | undefined>(this.#size), touched: [] };
    return rule;
  }

  /**
   * What every path selects from `ctx`. The answer is reused by the next run (read it before):
   * allocating it per context element was a measurable share of the rules' time.
   */
  run(ctx: XmlElement, doc: DocView): TrieHits {
    const hits = this.#hits;
    for (const rule of hits.touched) hits.counts[rule] = 0;
    hits.touched.length = 0;
    _count(this.#root.ends, ctx, hits);
    if (this.#root.edges.size > 0) _walk(this.#root, ctx, doc, hits);
    return hits;
  }
}

function _node(): TrieNode {
  return { edges: new Map(), byText: new Map(), ends: [] };
}

function _walk(node: TrieNode, el: XmlElement, doc: DocView, hits: TrieHits): void {
  // Visit the children once and look their names up in the node, or the node's names up in the
  // children, whichever side is smaller (the root of a rule context has hundreds of names).
  // With one name to follow, the children in order are what the index would give, in the same order.
  if (el.children.length <= node.edges.size || node.edges.size === 1) {
    for (const kid of el.children) {
      const edges = node.edges.get(doc.name(kid.local));
      if (edges !== undefined) for (const edge of edges) _follow(edge, kid, doc, hits);
    }
    return;
  }
  const index = doc.childIndex(el);
  for (const [local, edges] of node.edges) {
    const kids = index.get(local);
    if (kids === undefined) continue;
    for (const kid of kids) for (const edge of edges) _follow(edge, kid, doc, hits);
  }
}

function _follow(edge: TrieEdge, kid: XmlElement, doc: DocView, hits: TrieHits): void {
  if (doc.name(kid.ns) !== edge.ns) return;
  for (const pred of edge.preds) if (!pred(kid, doc)) return;
  _count(edge.node.ends, kid, hits);
  if (edge.node.edges.size > 0) _walk(edge.node, kid, doc, hits);
}

function _count(ends: TrieNode["ends"], el: XmlElement, hits: TrieHits): void {
  for (const end of ends) {
    if (end.attr !== null && !_hasAttr(el, end.attr)) continue;
    const count = hits.counts[end.rule]!;
    if (count === 0) hits.touched.push(end.rule);
    if (count === end.report) hits.at[end.rule] = el;
    hits.counts[end.rule] = count + 1;
  }
}

function _hasAttr(el: XmlElement, local: string): boolean {
  for (const a of el.attrs) if (a.ns === "" && a.local === local) return true;
  return false;
}
