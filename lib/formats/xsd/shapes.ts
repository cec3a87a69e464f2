/**
 * Shapes of content: the names of an element's children in order, under one content model, with the declarations
 * a match gave them. A content model's match depends on the children's names alone, and invoices repeat their
 * lines' shapes, so most elements with children are matched by comparing their children's names with an earlier
 * element's. The parser interns names, so in the usual case each comparison finds the same string.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import type { ElementDecl, Particle, SimpleType, Wildcard } from "./model.ts";

/** What a match attributes each child to: a declaration, a wildcard, or nothing after a failed match. */
export type Attribution = (ElementDecl | Wildcard | undefined)[];

/**
 * A match's attribution and, for each child, the simple type that alone judges it when it has neither attributes
 * nor children (null when the general checks must run: see validate.ts), and the last text that type accepted there
 * in this document.
 */
export interface Matched {
  decls: Attribution;
  leaves: (SimpleType | null)[];
  accepted: (string | undefined)[];
}

interface _Shape extends Matched {
  kids: XmlElement[];
}

/** Elements with more children than this are matched each time: their shapes rarely repeat. */
export const MAX_SHAPE_CHILDREN = 64;
/** Shapes kept per content model: a line type has a few, and a miss compares with each. */
const _PER_PARTICLE = 8;
/** Shapes kept per document: one made to hold ever new shapes keeps a few megabytes of them at most. */
const _PER_DOCUMENT = 4096;

/** The shapes of one document's elements, by content model. */
export class Shapes {
  #byParticle = new Map<Particle, { list: _Shape[]; oldest: number }>();
  #kept = 0;

  /** What an earlier match under `particle` gave children of the same names as `kids`, or null. */
  find(particle: Particle, kids: XmlElement[]): Matched | null {
    const list = this.#byParticle.get(particle)?.list;
    if (list === undefined) return null;
    for (let s = 0; s < list.length; s++) if (_sameNames(list[s]!.kids, kids)) return list[s]!;
    return null;
  }

  /** Keeps what a successful match under `particle` gave `kids`; past its share, a content model's oldest shape makes room. */
  keep(particle: Particle, kids: XmlElement[], matched: Matched): void {
    const shape: _Shape = { kids, decls: matched.decls, leaves: matched.leaves, accepted: matched.accepted };
    let kept = this.#byParticle.get(particle);
    if (kept === undefined) this.#byParticle.set(particle, (kept = { list: [], oldest: 0 }));
    if (kept.list.length === _PER_PARTICLE) {
      kept.list[kept.oldest] = shape;
      kept.oldest = (kept.oldest + 1) % _PER_PARTICLE;
    } else if (this.#kept < _PER_DOCUMENT) {
      this.#kept++;
      kept.list.push(shape);
    }
  }
}

function _sameNames(a: XmlElement[], b: XmlElement[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.local !== b[i]!.local || a[i]!.ns !== b[i]!.ns) return false;
  return true;
}
