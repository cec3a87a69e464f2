/**
 * Content-model particles as compiled: occurrence ranges, first sets and emptiability, and
 * each sequence's jump table (which item the next child's name starts), computed once so that
 * validation matches children without backtracking (XML Schema Part 1 §3.8.6, Unique Particle Attribution).
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { type Particle, type ParticleTerm, qualify, type SequenceTerm, type Wildcard } from "./model.ts";
import { attrOf } from "./schema_docs.ts";

/** minOccurs and maxOccurs of a particle (unbounded is Infinity). */
export function occursOf(el: XmlElement): { min: number; max: number } {
  const min = attrOf(el, "minOccurs");
  const max = attrOf(el, "maxOccurs");
  return { min: min === null ? 1 : Number(min), max: max === null ? 1 : max === "unbounded" ? Infinity : Number(max) };
}

/** A sequence term with its jump table (null when an item can start with a wildcard) and where its required items are. */
export function sequenceTerm(items: Particle[]): SequenceTerm {
  return { kind: "sequence", items, jump: _jumpTable(items), required: _requiredFrom(items) };
}

function _jumpTable(items: Particle[]): Map<number, number[]> | null {
  if (items.some((p) => p.firstAny.length > 0)) return null;
  const jump = new Map<number, number[]>();
  items.forEach((p, i) => {
    for (const id of p.firstIds) {
      const list = jump.get(id);
      if (list) list.push(i);
      else jump.set(id, [i]);
    }
  });
  return jump;
}

/** For each index, the first item from there on that must occur (so that skipping items costs no loop at validation). */
function _requiredFrom(items: Particle[]): number[] {
  const out = new Array<number>(items.length + 1);
  out[items.length] = items.length;
  for (let k = items.length - 1; k >= 0; k--) out[k] = items[k]!.min > 0 && !items[k]!.emptiable ? k : out[k + 1]!;
  return out;
}

/** A particle with its first set and emptiability computed from its (already compiled) items. */
export function particleOf(term: ParticleTerm, min: number, max: number): Particle {
  const first = new Set<string>();
  const firstIds = new Set<number>();
  const firstAny: Wildcard[] = [];
  const add = (p: Particle): void => {
    for (const n of p.first) first.add(n);
    for (const id of p.firstIds) firstIds.add(id);
    firstAny.push(...p.firstAny);
  };
  let emptiable: boolean;
  if (term.kind === "element") {
    first.add(qualify(term.decl.ns, term.decl.local));
    firstIds.add(term.id);
    emptiable = false;
  } else if (term.kind === "any") {
    firstAny.push(term.wildcard);
    emptiable = false;
  } else if (term.kind === "sequence") {
    emptiable = true;
    for (const p of term.items) {
      add(p);
      if (!(p.emptiable || p.min === 0)) {
        emptiable = false;
        break;
      }
    }
  } else {
    emptiable = term.kind === "all" || term.items.length === 0 ? term.items.every((p) => p.emptiable || p.min === 0) : false;
    for (const p of term.items) {
      add(p);
      if (term.kind === "choice" && (p.emptiable || p.min === 0)) emptiable = true;
    }
  }
  return { ...term, min, max, first, firstIds, firstAny, emptiable } as Particle;
}
