/**
 * A segment trie router in the style of trouter/Hono's RegExpRouter-free tries:
 * static segments beat `:param` segments, so `/documents/sync` wins over
 * `/documents/:id`. It answers "no such path" and "no such method" (with the
 * allowed methods) separately; HEAD matches wherever GET does (RFC 9110 §9.3.2).
 * @module
 */

/** A route: method, pattern such as `/api/v1/documents/:id/xml`, and what it carries. */
export interface RouteDef<T> {
  method: string;
  pattern: string;
  data: T;
}

/** The result of matching a request line. */
export type RouteMatch<T> =
  | { kind: "found"; data: T; pattern: string; params: Record<string, string> }
  | { kind: "method_not_allowed"; allow: string[] }
  | { kind: "not_found" };

interface _Node<T> {
  statics: Map<string, _Node<T>>;
  param: { name: string; node: _Node<T> } | null;
  methods: Map<string, { data: T; pattern: string }>;
}

function _node<T>(): _Node<T> {
  return { statics: new Map(), param: null, methods: new Map() };
}

/** A router over a fixed table of routes. */
export interface Router<T> {
  match(method: string, path: string): RouteMatch<T>;
  routes: readonly RouteDef<T>[];
}

/** Builds a router; throws TypeError on a conflicting table (a programmer mistake). */
export function createRouter<T>(routes: RouteDef<T>[]): Router<T> {
  const root = _node<T>();
  // Routes without parameters by their whole path: one lookup instead of a walk (a static route wins over a
  // parameter at every segment anyway, so the walk would end at the same node).
  const exact = new Map<string, _Node<T>>();
  for (const r of routes) {
    let node = root;
    for (const seg of r.pattern.split("/").slice(1)) {
      if (seg.startsWith(":")) {
        const name = seg.slice(1);
        if (node.param && node.param.name !== name) throw new TypeError(`Conflicting parameter names at ${r.pattern}`);
        node.param ??= { name, node: _node<T>() };
        node = node.param.node;
      } else {
        let next = node.statics.get(seg);
        if (!next) node.statics.set(seg, (next = _node<T>()));
        node = next;
      }
    }
    if (node.methods.has(r.method)) throw new TypeError(`Duplicate route ${r.method} ${r.pattern}`);
    node.methods.set(r.method, { data: r.data, pattern: r.pattern });
    if (!r.pattern.includes("/:")) exact.set(r.pattern, node);
  }

  function match(method: string, path: string): RouteMatch<T> {
    const params: Record<string, string> = {};
    const node = exact.get(path) ?? _walk(root, path.split("/"), 1, params);
    if (!node || node.methods.size === 0) return { kind: "not_found" };
    const hit = node.methods.get(method) ?? (method === "HEAD" ? node.methods.get("GET") : undefined);
    if (hit) return { kind: "found", data: hit.data, pattern: hit.pattern, params };
    const allow = [...node.methods.keys()];
    if (allow.includes("GET")) allow.push("HEAD");
    return { kind: "method_not_allowed", allow };
  }

  return { match, routes };
}

// Depth-first with backtracking: a static branch that dead-ends falls back to the parameter.
function _walk<T>(node: _Node<T>, segs: string[], i: number, params: Record<string, string>): _Node<T> | null {
  if (i === segs.length) return node;
  const seg = segs[i]!;
  const stat = node.statics.get(seg);
  if (stat) {
    const found = _walk(stat, segs, i + 1, params);
    if (found && found.methods.size > 0) return found;
  }
  if (node.param && seg !== "") {
    const found = _walk(node.param.node, segs, i + 1, params);
    if (found && found.methods.size > 0) {
      params[node.param.name] = seg;
      return found;
    }
  }
  return null;
}
