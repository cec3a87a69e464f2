/**
 * What the syntax rules need of a document beyond the element in hand: every element by name
 * and every element carrying a given attribute (for the artefacts' `//x` tests), each element's
 * parent, and an XPath-like location for reports. Built in one walk, only once per check.
 * @module
 */
import type { XmlElement } from "../../../xml/tree.ts";

/** Read-only views over one parsed document. */
export interface DocView {
  readonly root: XmlElement;
  /** The parent element, `undefined` for the root. */
  parentOf(el: XmlElement): XmlElement | undefined;
  /** Every element with this name, in document order (the root included). */
  all(ns: string, local: string): readonly XmlElement[];
  /** Every element carrying an attribute of this local name in no namespace, in document order. */
  withAttr(local: string): readonly XmlElement[];
  /** The element's children grouped by local name (built on first request, then kept). */
  childIndex(el: XmlElement): ReadonlyMap<string, readonly XmlElement[]>;
  /** A value computed once per document (for checks that would otherwise rescan it per element). */
  memo<T>(key: object, compute: () => T): T;
  /** `/Invoice/cac:InvoiceLine[2]/cbc:ID`: names as written, a position where siblings share a name. */
  pathOf(el: XmlElement): string;
}

const EMPTY: readonly XmlElement[] = [];

/** Indexes a document in one pre-order walk. */
export function buildDocView(root: XmlElement): DocView {
  const parents = new Map<XmlElement, XmlElement>();
  const byName = new Map<string, Map<string, XmlElement[]>>();
  const byAttr = new Map<string, XmlElement[]>();
  const indexes = new Map<XmlElement, Map<string, XmlElement[]>>();
  const memos = new Map<object, unknown>();
  const stack: XmlElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    let inNs = byName.get(el.ns);
    if (inNs === undefined) byName.set(el.ns, (inNs = new Map()));
    _push(inNs, el.local, el);
    for (const a of el.attrs) if (a.ns === "") _push(byAttr, a.local, el);
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const kid = kids[i]!;
      parents.set(kid, el);
      stack.push(kid);
    }
  }
  return {
    root,
    parentOf: (el) => parents.get(el),
    all: (ns, local) => byName.get(ns)?.get(local) ?? EMPTY,
    withAttr: (local) => byAttr.get(local) ?? EMPTY,
    childIndex: (el) => {
      let index = indexes.get(el);
      if (index === undefined) {
        index = new Map();
        for (const kid of el.children) _push(index, kid.local, kid);
        indexes.set(el, index);
      }
      return index;
    },
    memo: <T>(key: object, compute: () => T): T => {
      if (!memos.has(key)) memos.set(key, compute());
      return memos.get(key) as T;
    },
    pathOf: (el) => _pathOf(el, parents),
  };
}

function _push(map: Map<string, XmlElement[]>, key: string, el: XmlElement): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [el]);
  else list.push(el);
}

function _pathOf(el: XmlElement, parents: Map<XmlElement, XmlElement>): string {
  const parts: string[] = [];
  for (let cur: XmlElement | undefined = el; cur !== undefined; ) {
    const parent: XmlElement | undefined = parents.get(cur);
    const name = cur.prefix === "" ? cur.local : `${cur.prefix}:${cur.local}`;
    let part = name;
    if (parent !== undefined) {
      let index = 0;
      let same = 0;
      for (const sib of parent.children) {
        if (sib.local !== cur.local || sib.ns !== cur.ns) continue;
        same++;
        if (sib === cur) index = same;
      }
      if (same > 1) part = `${name}[${index}]`;
    }
    parts.push(part);
    cur = parent;
  }
  return "/" + parts.reverse().join("/");
}
