/**
 * Matches a parsed XSD pattern (regex.ts) in time linear in the value's length and without recursion on it:
 * Thompson's construction of a nondeterministic automaton, run one character at a time over the set of states
 * it can be in (K. Thompson, "Regular expression search algorithm", CACM 1968; R. Cox, "Regular Expression
 * Matching Can Be Simple And Fast", 2007), each set met becoming a state of a deterministic automaton built as
 * values need it, as RE2 does. XSD patterns have no backreferences and no lookaround, so the automaton decides
 * exactly what the RegExp does. It does not find or capture anything: whole values only.
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
/** Sets of automaton states remembered as one state of a deterministic automaton, per pattern; then it starts over. */
const MAX_SETS = 1024;
/** Transitions on characters beyond ASCII remembered per set. */
const MAX_OTHER = 256;

interface _Program {
  op: number[];
  arg: number[];
  alt: number[];
  classes: ((cp: number) => boolean)[];
}

/**
 * A set of states the automaton can be in, with where each character leads: the deterministic automaton is built
 * as values need it (as RE2 does), so a long value costs a table lookup per character once its sets are known.
 */
interface _Set {
  /** The CHAR and MATCH instructions of the set, in increasing order. */
  states: Int32Array;
  matches: boolean;
  ascii: (_Set | undefined)[];
  other: Map<number, _Set>;
}

/** A whole-value matcher for `tree`, linear in the value's length. */
export function compileLinearMatch(tree: RegexNode): (value: string) => boolean {
  const p: _Program = { op: [], arg: [], alt: [], classes: [] };
  const classIds = new Map<string, number>();
  _compile(p, tree, classIds);
  _emit(p, MATCH);
  const { op, arg, alt, classes } = p;
  const n = op.length;
  const seen = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const list = new Int32Array(n);
  let step = 0;
  let sets = new Map<string, _Set>();

  // Adds the states reachable from `from` without consuming a character (each once per step) to `list`.
  const follow = (size: number, from: number): number => {
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
  const intern = (size: number): _Set => {
    const states = list.slice(0, size).sort();
    const key = states.join(",");
    let set = sets.get(key);
    if (set === undefined) {
      if (sets.size >= MAX_SETS) {
        // Start over: the sets known so far forget where characters lead, so that none of them holds on to others.
        for (const old of sets.values()) (old.ascii = new Array<_Set | undefined>(128), old.other.clear());
        sets = new Map();
      }
      set = { states, matches: states.some((pc) => op[pc] === MATCH), ascii: new Array<_Set | undefined>(128), other: new Map() };
      sets.set(key, set);
    }
    return set;
  };
  const advance = (from: _Set, cp: number): _Set => {
    step++;
    let size = 0;
    for (const pc of from.states) if (op[pc] === CHAR && classes[arg[pc]!]!(cp)) size = follow(size, pc + 1);
    const to = intern(size);
    if (cp < 128) from.ascii[cp] = to;
    else if (from.other.size < MAX_OTHER) from.other.set(cp, to);
    return to;
  };
  step++;
  const start = intern(follow(0, 0));
  return (value) => {
    let at = start;
    for (let i = 0; i < value.length && at.states.length > 0; i++) {
      const unit = value.charCodeAt(i);
      if (unit < 128) {
        at = at.ascii[unit] ?? advance(at, unit);
        continue;
      }
      const cp = value.codePointAt(i)!;
      if (cp > 0xffff) i++;
      at = at.other.get(cp) ?? advance(at, cp);
    }
    return at.matches;
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
