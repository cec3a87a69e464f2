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

/** A node of a trie: where a path of child steps from the context element has got to. */
export interface TrieNode {
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

  /**
   * True when no step has predicates and no node has two steps for one local name: then what the trie finds,
   * first to last, comes in document order, and a walk of the whole document can count it as it passes
   * (`start`, `follow`, `count`).
   */
  get plain(): boolean {
    const pending = [this.#root];
    while (pending.length > 0) {
      const node = pending.pop()!;
      for (const edges of node.edges.values()) {
        if (edges.length > 1 || edges[0]!.preds.length > 0) return false;
        pending.push(edges[0]!.node);
      }
    }
    return true;
  }

  /** The node of the context element itself. */
  get root(): TrieNode {
    return this.#root;
  }

  /** The hits of a walk that counts for itself, cleared (the same object `run` answers with). */
  start(): TrieHits {
    const hits = this.#hits;
    for (const rule of hits.touched) hits.counts[rule] = 0;
    hits.touched.length = 0;
    return hits;
  }

  /** The node one child step further, for a child with these names; null for none. */
  static follow(node: TrieNode, ns: string, local: string): TrieNode | null {
    const edges = node.edges.get(local);
    if (edges !== undefined) for (const edge of edges) if (edge.ns === ns) return edge.node;
    return null;
  }

  /** Counts `el` for the paths that end at its node. */
  static count(node: TrieNode, el: XmlElement, hits: TrieHits): void {
    _count(node.ends, el, hits);
  }

  /** True when `run` would take the children of `el` (at its node) by name, not in document order (see _walk). */
  static outOfOrder(node: TrieNode, el: XmlElement): boolean {
    return node.edges.size > 1 && el.children.length > node.edges.size;
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
    const hits = this.start();
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
      const edges = node.edges.get(kid.local);
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
  if (kid.ns !== edge.ns) return;
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
