/**
 * A storage that can hold one call of a tenant store's method until the test lets it go, so that a test can
 * make a race happen in a chosen order (a PATCH's read, then a DELETE, then the PATCH's write) instead of
 * hoping for it.
 */
import type { Storage, TenantStore } from "../../lib/contracts/storage.ts";

/** A wrapped storage and its holds. */
export interface HeldStorage {
  storage: Storage;
  /**
   * The next call of `method` on any tenant waits (after it ran) until `release()`; `reached` resolves
   * when that call has run and is being held.
   */
  hold(method: keyof TenantStore): { reached: Promise<void>; release(): void };
  /** How many times each tenant-store method was called so far. */
  calls: Map<string, number>;
}

/** Wraps `inner`. */
export function heldStorage(inner: Storage): HeldStorage {
  const holds = new Map<string, { reach(): void; released: Promise<void> }>();
  const calls = new Map<string, number>();
  const wrapTenant = (t: TenantStore): TenantStore =>
    new Proxy(t, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown;
        if (typeof v !== "function") return v;
        return async (...args: unknown[]) => {
          calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
          const result = await (v as (...a: unknown[]) => unknown).apply(target, args);
          const h = holds.get(String(prop));
          if (h) {
            holds.delete(String(prop));
            h.reach();
            await h.released;
          }
          return result;
        };
      },
    });
  const storage = new Proxy(inner, {
    get(target, prop) {
      if (prop === "tenant") return (id: string) => wrapTenant(target.tenant(id));
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return {
    storage,
    calls,
    hold(method) {
      let reach!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((r) => (reach = r));
      const released = new Promise<void>((r) => (release = r));
      holds.set(method, { reach, released });
      return { reached, release };
    },
  };
}
