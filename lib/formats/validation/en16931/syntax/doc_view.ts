/**
 * What the syntax rules need of a document beyond the element in hand: every element by name
 * and every element carrying a given attribute (for the artefacts' `//x` tests), each element's
 * parent, and an XPath-like location for reports. Each is built on first need, once per check.
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
  /** Records what `all` answers for a name, as a walk over the whole document found it (unless already known). */
  noteAll(ns: string, local: string, found: XmlElement[]): void;
  /** Records what `withAttr` answers for every attribute, as a walk over the whole document found them. */
  noteAttributes(carrying: ReadonlyMap<string, readonly XmlElement[]>): void;
  /** The element's children grouped by local name (built on first request, then kept). */
  childIndex(el: XmlElement): ReadonlyMap<string, readonly XmlElement[]>;
  /** A value computed once per document (for checks that would otherwise rescan it per element). */
  memo<T>(key: object, compute: () => T): T;
  /** `/Invoice/cac:InvoiceLine[2]/cbc:ID`: names as written, a position where siblings share a name. */
  pathOf(el: XmlElement): string;
}

const EMPTY: readonly XmlElement[] = [];

/** Every element (pre-order, the root included) that passes the test. */
function _collect(root: XmlElement, test: (el: XmlElement) => boolean): XmlElement[] {
  const found: XmlElement[] = [];
  const pending: XmlElement[] = [root];
  while (pending.length > 0) {
    const el = pending.pop()!;
    if (test(el)) found.push(el);
    const kids = el.children;
    for (let i = kids.length - 1; i >= 0; i--) pending.push(kids[i]!);
  }
  return found;
}

function _carries(el: XmlElement, local: string): boolean {
  for (const a of el.attrs) if (a.ns === "" && a.local === local) return true;
  return false;
}

/**
 * Every element's parent. Built only when asked: a valid document's rules rarely ask for the parent of an element
 * off the walk's path, and for a location only on a violation, so most checks never pay for a map entry per element.
 */
function _parents(root: XmlElement): Map<XmlElement, XmlElement> {
  const parents = new Map<XmlElement, XmlElement>();
  const pending: XmlElement[] = [root];
  while (pending.length > 0) {
    const el = pending.pop()!;
    for (const kid of el.children) {
      parents.set(kid, el);
      pending.push(kid);
    }
  }
  return parents;
}

/**
 * A view of the document. `path` is the walk's current ancestor stack (root first), kept up to
 * date by the caller: the parent of an element on it is read from it, so most documents never
 * need the map of every element's parent, which is built on first need.
 */
export function buildDocView(root: XmlElement, path: readonly XmlElement[] = []): DocView {
  let parentMap: Map<XmlElement, XmlElement> | undefined;
  // By name and by attribute, each list on first request: the rules ask for a few names, so one walk per name
  // costs less than an index of every element.
  const named = new Map<string, Map<string, XmlElement[]>>();
  const carrying = new Map<string, XmlElement[]>();
  let attributes: ReadonlyMap<string, readonly XmlElement[]> | null = null;
  const parents = (): Map<XmlElement, XmlElement> => (parentMap ??= _parents(root));
  const indexes = new Map<XmlElement, Map<string, XmlElement[]>>();
  const memos = new Map<object, unknown>();
  const steps = new Map<XmlElement, Map<XmlElement, string>>();
  const namedIn = (ns: string): Map<string, readonly XmlElement[]> => {
    let inNs = named.get(ns);
    if (inNs === undefined) named.set(ns, (inNs = new Map()));
    return inNs;
  };
  return {
    root,
    parentOf: (el) => {
      for (let i = path.length - 1; i >= 0; i--) if (path[i] === el) return i > 0 ? path[i - 1] : undefined;
      return parents().get(el);
    },
    all: (ns, local) => {
      const inNs = namedIn(ns);
      let found = inNs.get(local);
      if (found === undefined) inNs.set(local, (found = _collect(root, (el) => el.local === local && el.ns === ns)));
      return found;
    },
    withAttr: (local) => {
      if (attributes !== null) return attributes.get(local) ?? EMPTY;
      let found = carrying.get(local);
      if (found === undefined) carrying.set(local, (found = _collect(root, (el) => _carries(el, local))));
      return found;
    },
    noteAll: (ns, local, found) => {
      const inNs = namedIn(ns);
      if (!inNs.has(local)) inNs.set(local, found);
    },
    noteAttributes: (all) => {
      attributes = all;
    },
    childIndex: (el) => {
      let kids = indexes.get(el);
      if (kids === undefined) {
        kids = new Map();
        for (const kid of el.children) _push(kids, kid.local, kid);
        indexes.set(el, kids);
      }
      return kids;
    },
    memo: <T>(key: object, compute: () => T): T => {
      if (!memos.has(key)) memos.set(key, compute());
      return memos.get(key) as T;
    },
    pathOf: (el) => _pathOf(el, parents(), steps),
  };
}

function _push(map: Map<string, XmlElement[]>, key: string, el: XmlElement): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [el]);
  else list.push(el);
}

/** Each child's step in a path (`cac:InvoiceLine[2]`), computed once per parent. */
function _steps(parent: XmlElement): Map<XmlElement, string> {
  const totals = new Map<string, number>();
  for (const kid of parent.children) {
    const key = `${kid.ns} ${kid.local}`;
    totals.set(key, (totals.get(key) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  const steps = new Map<XmlElement, string>();
  for (const kid of parent.children) {
    const key = `${kid.ns} ${kid.local}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const name = _name(kid);
    steps.set(kid, totals.get(key)! > 1 ? `${name}[${n}]` : name);
  }
  return steps;
}

function _name(el: XmlElement): string {
  return el.prefix === "" ? el.local : `${el.prefix}:${el.local}`;
}

function _pathOf(el: XmlElement, parents: Map<XmlElement, XmlElement>, steps: Map<XmlElement, Map<XmlElement, string>>): string {
  const parts: string[] = [];
  for (let cur: XmlElement | undefined = el; cur !== undefined; ) {
    const parent: XmlElement | undefined = parents.get(cur);
    if (parent === undefined) {
      parts.push(_name(cur));
    } else {
      let own = steps.get(parent);
      if (own === undefined) steps.set(parent, (own = _steps(parent)));
      parts.push(own.get(cur)!);
    }
    cur = parent;
  }
  return "/" + parts.reverse().join("/");
}
