/**
 * Matches a parsed XSD pattern (regex.ts) in time linear in the value's length and without recursion on it:
 * Thompson's construction of a nondeterministic automaton, simulated one character at a time over the set of
 * states it can be in (K. Thompson, "Regular expression search algorithm", CACM 1968; R. Cox, "Regular
 * Expression Matching Can Be Simple And Fast", 2007). XSD patterns have no backreferences and no lookaround, so
 * the automaton decides exactly what the RegExp does. It does not find or capture anything: whole values only.
 * @module
 */

import type { RegexNode } from "./regex.ts";

// Instructions: CHAR consumes one character of class `arg`; SPLIT goes on at both `arg` and `alt`; JUMP at `arg`.
const CHAR = 0;
const SPLIT = 1;
const JUMP = 2;
const MATCH = 3;

/** Code points whose class membership a class remembers beside ASCII (a value has few distinct ones). */
const MAX_REMEMBERED = 65_536;

interface _Program {
  op: number[];
  arg: number[];
  alt: number[];
  classes: ((cp: number) => boolean)[];
}

/** A whole-value matcher for `tree`, linear in the value's length. */
export function compileLinearMatch(tree: RegexNode): (value: string) => boolean {
  const p: _Program = { op: [], arg: [], alt: [], classes: [] };
  const classIds = new Map<string, number>();
  _compile(p, tree, classIds);
  _emit(p, MATCH);
  const { op, arg, alt, classes } = p;
  const n = op.length;
  return (value) => {
    let current = new Int32Array(n);
    let next = new Int32Array(n);
    const seen = new Int32Array(n).fill(-1);
    const stack = new Int32Array(n);
    // Adds the states reachable from `from` without consuming a character (each once per step) to `list`.
    const follow = (list: Int32Array, size: number, from: number, step: number): number => {
      if (seen[from] === step) return size;
      seen[from] = step;
      let sp = 0;
      stack[sp++] = from;
      while (sp > 0) {
        const pc = stack[--sp]!;
        const o = op[pc];
        if (o === JUMP || o === SPLIT) {
          const to = arg[pc]!;
          if (seen[to] !== step) (seen[to] = step, stack[sp++] = to);
          if (o === SPLIT && seen[alt[pc]!] !== step) (seen[alt[pc]!] = step, stack[sp++] = alt[pc]!);
        } else list[size++] = pc;
      }
      return size;
    };
    let step = 0;
    let size = follow(current, 0, 0, step);
    for (let i = 0; i < value.length && size > 0;) {
      const cp = value.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
      step++;
      let nextSize = 0;
      for (let k = 0; k < size; k++) {
        const pc = current[k]!;
        if (op[pc] === CHAR && classes[arg[pc]!]!(cp)) nextSize = follow(next, nextSize, pc + 1, step);
      }
      const done = current;
      current = next;
      next = done;
      size = nextSize;
    }
    for (let k = 0; k < size; k++) if (op[current[k]!] === MATCH) return true;
    return false;
  };
}

function _emit(p: _Program, o: number, arg = 0, alt = 0): number {
  p.op.push(o);
  p.arg.push(arg);
  p.alt.push(alt);
  return p.op.length - 1;
}

/** Appends the instructions of `node`. Recursion follows the pattern's nesting (a schema's), never the value. */
function _compile(p: _Program, node: RegexNode, classIds: Map<string, number>): void {
  switch (node.kind) {
    case "char": {
      let id = classIds.get(node.source);
      if (id === undefined) {
        id = p.classes.push(_classTest(node.source)) - 1;
        classIds.set(node.source, id);
      }
      _emit(p, CHAR, id);
      return;
    }
    case "seq":
      for (const item of node.items) _compile(p, item, classIds);
      return;
    case "group":
      return _compile(p, node.node, classIds);
    case "alt": {
      // SPLIT to a branch or the next SPLIT; every branch but the last jumps to the end.
      const jumps: number[] = [];
      node.branches.forEach((branch, i) => {
        if (i === node.branches.length - 1) return _compile(p, branch, classIds);
        const split = _emit(p, SPLIT, p.op.length + 1);
        _compile(p, branch, classIds);
        jumps.push(_emit(p, JUMP));
        p.alt[split] = p.op.length;
      });
      for (const j of jumps) p.arg[j] = p.op.length;
      return;
    }
    case "repeat": {
      for (let i = 0; i < node.min; i++) _compile(p, node.node, classIds);
      if (node.max === Infinity) {
        const split = _emit(p, SPLIT, p.op.length + 1);
        _compile(p, node.node, classIds);
        _emit(p, JUMP, split);
        p.alt[split] = p.op.length;
        return;
      }
      // Each optional copy may be skipped, to the end of them all.
      const splits: number[] = [];
      for (let i = node.min; i < node.max; i++) {
        splits.push(_emit(p, SPLIT, p.op.length + 1));
        _compile(p, node.node, classIds);
      }
      for (const s of splits) p.alt[s] = p.op.length;
      return;
    }
  }
}

/** Whether a code point is in the class of `source` (a one-character JS expression), remembered per code point. */
function _classTest(source: string): (cp: number) => boolean {
  const re = new RegExp(`^${source}$`, "v");
  const ascii = new Int8Array(128); // 0 not asked yet, 1 in the class, 2 not
  const other = new Map<number, boolean>();
  return (cp) => {
    if (cp < 128) {
      let known = ascii[cp]!;
      if (known === 0) ascii[cp] = known = re.test(String.fromCharCode(cp)) ? 1 : 2;
      return known === 1;
    }
    let known = other.get(cp);
    if (known === undefined) {
      known = re.test(String.fromCodePoint(cp));
      if (other.size < MAX_REMEMBERED) other.set(cp, known);
    }
    return known;
  };
}
