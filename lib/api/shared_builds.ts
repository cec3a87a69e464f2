/**
 * One build per derived result at a time (README "Limits"): concurrent requests for the same invoice JSON, PDF or
 * verdict of the same XML wait for the one build instead of each taking a large-read place of its own. The build
 * is abandoned only when every request waiting for it has gone. Nothing is kept once it settles: what lasts is
 * the caller's (the derived blob, the SHA-256 caches).
 * @module
 */

interface _Build {
  waiters: (() => boolean)[];
  result: Promise<unknown>;
}

/** Builds in flight by key; a key names the result and whose it is (tenant, kind, XML SHA-256, options). */
export class SharedBuilds {
  #inFlight = new Map<string, _Build>();

  /**
   * The result of `build` for `key`, joining a build of the same key that is in flight. `build` is given a
   * `gone` that is true once every request waiting for it has gone (`gone` of each).
   */
  run<T>(key: string, gone: () => boolean, build: (gone: () => boolean) => Promise<T>): Promise<T> {
    const inFlight = this.#inFlight.get(key);
    if (inFlight !== undefined) {
      inFlight.waiters.push(gone);
      return inFlight.result as Promise<T>;
    }
    const waiters = [gone];
    const result = build(() => waiters.every((g) => g())).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, { waiters, result });
    return result;
  }

  /** Requests waiting for a build that another request started (GET /metrics). */
  get joined(): number {
    let n = 0;
    for (const b of this.#inFlight.values()) n += b.waiters.length - 1;
    return n;
  }
}
