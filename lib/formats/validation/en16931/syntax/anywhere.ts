/**
 * The `//` test paths of a rule set (`//@schemeName`, `//cac:Price/cac:AllowanceCharge/cbc:Amount`).
 * They start from every element of a name (or carrying an attribute) in the document: the rule walk
 * gathers those as it passes (the attributes into the document view's index of them), so that no
 * other walk over the whole document is needed.
 * @module
 */
import type { XmlElement } from "../../../xml/tree.ts";
import type { DocView } from "./doc_view.ts";
import type { TestPath } from "./paths.ts";
import { selectSteps, stepMatches } from "./paths.ts";

/** The `//` paths of a rule set, each known by the index `add` gave it. */
export class AnywherePaths {
  readonly #paths: TestPath[] = [];
  /** The names the paths start from (`ns local` → slot), and each slot's name. */
  readonly #slotOf = new Map<string, number>();
  readonly #names: (readonly [ns: string, local: string])[] = [];

  /** Adds a `//` path; returns its index. */
  add(path: TestPath): number {
    const first = path.steps[0];
    for (const [ns, local] of first?.names ?? []) {
      const key = `${ns} ${local}`;
      if (!this.#slotOf.has(key)) this.#slotOf.set(key, this.#names.push([ns, local]) - 1);
    }
    return this.#paths.push(path) - 1;
  }

  /** The name slot an element of this name fills, -1 for none. */
  slotOf(ns: string, local: string): number {
    return this.#slotOf.get(`${ns} ${local}`) ?? -1;
  }

  /** Empty lists, one per slot, for a walk to fill. */
  gathering(): XmlElement[][] {
    // Built by push, as the walk's other arrays: a list made by map has another elements kind once this is optimised.
    const lists: XmlElement[][] = [];
    for (let i = 0; i < this.#names.length; i++) lists.push([]);
    return lists;
  }

  /** Hands the elements a walk over the whole document gathered per slot to the document's view. */
  note(doc: DocView, gathered: readonly XmlElement[][]): void {
    this.#names.forEach(([ns, local], slot) => doc.noteAll(ns, local, gathered[slot]!));
  }

  /**
   * What each path selects (by index, in document order within each step), once per document: read-only. The
   * tables use `//` paths only in contexts of the root, which run after the walk has noted what it gathered; a
   * context met during the walk would still get the right answer, from walks of its own (doc.all).
   */
  select(doc: DocView): readonly (readonly XmlElement[])[] {
    return doc.memo(this, () => this.#paths.map((path) => _select(path, doc)));
  }
}

function _select(path: TestPath, doc: DocView): readonly XmlElement[] {
  const first = path.steps[0];
  if (first === undefined) return path.attr === null ? [] : doc.withAttr(path.attr);
  // A wildcard first step selects nothing: only named steps are looked up.
  const level: XmlElement[] = [];
  for (const [ns, local] of first.names ?? []) {
    for (const el of doc.all(ns, local)) if (stepMatches(first, el, doc)) level.push(el);
  }
  return selectSteps(level, path.childSteps, path.attr, doc);
}
