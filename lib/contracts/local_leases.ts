/**
 * Leases held in this process's memory, for the stores whose work has one executing process anyway (the memory
 * store, and the file store, whose syncs and deliveries run in the one primary process). PostgreSQL keeps its
 * leases in the database instead, for many nodes.
 * @module
 */

/** Named leases with an owner and an expiry. */
export class LocalLeases {
  #leases = new Map<string, { owner: string; until: number }>();

  claim(name: string, owner: string, leaseMs: number): boolean {
    const held = this.#leases.get(name);
    if (held && held.owner !== owner && held.until > Date.now()) return false;
    this.#leases.set(name, { owner, until: Date.now() + leaseMs });
    return true;
  }

  release(name: string, owner: string): void {
    if (this.#leases.get(name)?.owner === owner) this.#leases.delete(name);
  }
}
