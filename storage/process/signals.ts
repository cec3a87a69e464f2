/**
 * SIGTERM and SIGINT for a graceful stop, on Node and on Deno (whose
 * node:process does not deliver them: Deno's own API does). Only the first
 * signal starts the stop; later ones are ignored while it runs.
 * @module
 */

/** Calls `stop` once, on the first SIGTERM or SIGINT. */
export function onStopSignal(stop: (signal: string) => void): void {
  let stopping = false;
  const once = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    stop(signal);
  };
  const deno = (globalThis as { Deno?: { addSignalListener(s: string, f: () => void): void } }).Deno;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    if (deno) deno.addSignalListener(signal, () => once(signal));
    else process.on(signal, () => once(signal));
  }
}
