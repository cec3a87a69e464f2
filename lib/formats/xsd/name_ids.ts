/**
 * Small integer ids for the element names that content models mention, so that matching a child
 * against a particle compares numbers and looks up numeric keys instead of building a `{ns}local`
 * string per child and hashing it. Ids are handed out as particles compile; a name no particle
 * mentions has none, so no element particle can start with it (wildcards match on the namespace).
 * @module
 */

interface _Named {
  ns: string;
  id: number;
}

// One table for every schema: a name gets the same id wherever it appears. Its size is bounded by the
// distinct element names of the (trusted, shipped) schemas, a few thousand at most.
const _byLocal = new Map<string, _Named[]>();
let _next = 0;

/** The id of an element name, handed out on first use (at compile time). */
export function nameId(ns: string, local: string): number {
  const found = elementId(ns, local);
  if (found >= 0) return found;
  const list = _byLocal.get(local);
  const entry = { ns, id: _next++ };
  if (list) list.push(entry);
  else _byLocal.set(local, [entry]);
  return entry.id;
}

/** The id of a document element's name, or -1 when no compiled particle mentions it. */
export function elementId(ns: string, local: string): number {
  // The parser interns names, so the local name's hash is computed once per document, not per lookup.
  const list = _byLocal.get(local);
  if (list === undefined) return -1;
  for (let i = 0; i < list.length; i++) if (list[i]!.ns === ns) return list[i]!.id;
  return -1;
}
