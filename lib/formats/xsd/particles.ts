/**
 * Content-model particles as compiled: occurrence ranges, first sets and emptiability, and
 * each sequence's jump table (which item the next child's name starts), computed once so that
 * validation matches children without backtracking (XML Schema Part 1 §3.8.6, Unique Particle Attribution).
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { type Particle, type ParticleTerm, qualify, type Wildcard } from "./model.ts";
import { attrOf } from "./schema_docs.ts";

/** minOccurs and maxOccurs of a particle (unbounded is Infinity). */
export function occursOf(el: XmlElement): { min: number; max: number } {
  const min = attrOf(el, "minOccurs");
  const max = attrOf(el, "maxOccurs");
  return { min: min === null ? 1 : Number(min), max: max === null ? 1 : max === "unbounded" ? Infinity : Number(max) };
}

/** A sequence term with its jump table (null when an item can start with a wildcard). */
export function sequenceTerm(items: Particle[]): ParticleTerm {
  if (items.some((p) => p.firstAny.length > 0)) return { kind: "sequence", items, jump: null };
  const jump = new Map<string, number[]>();
  items.forEach((p, i) => {
    for (const key of p.first) {
      const list = jump.get(key);
      if (list) list.push(i);
      else jump.set(key, [i]);
    }
  });
  return { kind: "sequence", items, jump };
}

/** A particle with its first set and emptiability computed from its (already compiled) items. */
export function particleOf(term: ParticleTerm, min: number, max: number): Particle {
  const first = new Set<string>();
  const firstAny: Wildcard[] = [];
  let emptiable: boolean;
  if (term.kind === "element") {
    first.add(qualify(term.decl.ns, term.decl.local));
    emptiable = false;
  } else if (term.kind === "any") {
    firstAny.push(term.wildcard);
    emptiable = false;
  } else if (term.kind === "sequence") {
    emptiable = true;
    for (const p of term.items) {
      for (const n of p.first) first.add(n);
      firstAny.push(...p.firstAny);
      if (!(p.emptiable || p.min === 0)) {
        emptiable = false;
        break;
      }
    }
  } else {
    emptiable = term.kind === "all" || term.items.length === 0 ? term.items.every((p) => p.emptiable || p.min === 0) : false;
    for (const p of term.items) {
      for (const n of p.first) first.add(n);
      firstAny.push(...p.firstAny);
      if (term.kind === "choice" && (p.emptiable || p.min === 0)) emptiable = true;
    }
  }
  return { ...term, min, max, first, firstAny, emptiable } as Particle;
}
