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
  const list = _byLocal.get(local);
  if (list === undefined) return -1;
  for (let i = 0; i < list.length; i++) if (list[i]!.ns === ns) return list[i]!.id;
  return -1;
}

/**
 * Element name ids for one document, remembered by the document's own strings. The parser interns names and
 * shares one namespace string per declaration, so a name seen again is found by identity; comparing the
 * document's strings with the schema's equal but distinct ones costs a character-by-character comparison.
 */
export class DocumentNames {
  #memo = new Map<string, _Named>();
  /** The known name looked up last: siblings often share one (an invoice's lines). */
  #lastLocal = "";
  #last: _Named = { ns: "", id: -1 };

  /** The id of an element name of this document, or -1 (as `elementId`). */
  id(ns: string, local: string): number {
    if (local === this.#lastLocal && ns === this.#last.ns) return this.#last.id;
    const seen = this.#memo.get(local);
    if (seen !== undefined && seen.ns === ns) {
      this.#lastLocal = local;
      this.#last = seen;
      return seen.id;
    }
    const id = elementId(ns, local);
    // Only known names are remembered: types compile on first use, so a name unknown now may get an id later in the document.
    if (id >= 0) this.#memo.set(local, { ns, id });
    return id;
  }
}
