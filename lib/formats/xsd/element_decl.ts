/**
 * Element declarations as compiled: the type is compiled on first use, so that start-up only parses and
 * indexes the schemas (compile.ts) and what no document uses is never compiled.
 * @module
 */

import { anyType } from "./builtin_types.ts";
import type { ComplexType, ElementDecl, SimpleType } from "./model.ts";

/**
 * An element declaration whose type is compiled on first use. A class rather than a getter defined on each
 * object: every declaration then shares one shape, and the validator's reads of them stay monomorphic.
 */
export class LazyElementDecl implements ElementDecl {
  ns: string;
  local: string;
  nillable = false;
  fixed: string | null = null;
  default: string | null = null;
  abstract = false;
  /** Compiles the type; compile.ts sets it once it has read the declaration. */
  compute: () => SimpleType | ComplexType = () => anyType;
  #type: SimpleType | ComplexType | null = null;

  constructor(ns: string, local: string) {
    this.ns = ns;
    this.local = local;
  }

  get type(): SimpleType | ComplexType {
    return (this.#type ??= this.compute());
  }
}
