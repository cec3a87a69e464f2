/**
 * Independent steps of many invoices run a few at once (README "Sending to KSeF"): joining a batch session, writing
 * batch outcomes. Their writes then meet in the store's group commit (one flush for many, as the file store and
 * PostgreSQL's connection pool take them), and their downloads overlap, instead of one flush and one round trip
 * after another. Each invoice's own steps stay in order: only different invoices overlap.
 * @module
 */

/**
 * Calls `step` for each item, at most `n` at once, each worker taking the next item as its last one ends. A step
 * that returns false stops the taking of further items (those running finish); the first error is thrown once
 * the running steps settled.
 */
export async function eachAtOnce<T>(items: Iterable<T>, n: number, step: (item: T) => Promise<boolean | void>): Promise<void> {
  const it = items[Symbol.iterator]();
  let stop = false;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (!stop) {
      const next = it.next();
      if (next.done) return;
      try {
        if ((await step(next.value)) === false) stop = true;
      } catch (error) {
        stop = true;
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, n) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}
