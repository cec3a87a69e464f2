/**
 * Process metrics in the Prometheus text exposition format (version 0.0.4):
 * requests by route template and status, a request latency histogram, and
 * counters and gauges that other parts register (sync runs, webhook deliveries,
 * outbox depth). Label values are route templates, never raw paths, so the
 * number of series stays bounded.
 * @module
 */

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]; // seconds

function _labels(l: Record<string, string>): string {
  const parts = Object.entries(l).map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
}

/** A registry of the process's metrics. */
export class Metrics {
  #requests = new Map<string, Map<number, number>>(); // route → status → count
  #counts = new Array<number>(BUCKETS.length).fill(0);
  #sum = 0;
  #total = 0;
  #counters = new Map<string, { help: string; values: Map<string, number> }>();
  #gauges = new Map<string, { help: string; read: () => number | Promise<number> }>();
  #labelled = new Map<string, { help: string; read: () => readonly { labels: Record<string, string>; value: number }[] }>();

  /** Records one finished request. */
  observeRequest(route: string, status: number, seconds: number): void {
    let byStatus = this.#requests.get(route);
    if (!byStatus) this.#requests.set(route, (byStatus = new Map()));
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) this.#counts[i]!++;
    this.#sum += seconds;
    this.#total++;
  }

  /** Adds 1 to a labelled counter. */
  inc(name: string, help: string, labels: Record<string, string>): void {
    let c = this.#counters.get(name);
    if (!c) this.#counters.set(name, (c = { help, values: new Map() }));
    const key = _labels(labels);
    c.values.set(key, (c.values.get(key) ?? 0) + 1);
  }

  /** Registers a gauge read at scrape time. */
  gauge(name: string, help: string, read: () => number | Promise<number>): void {
    this.#gauges.set(name, { help, read });
  }

  /** Registers a gauge with one series per label set, read at scrape time (e.g. days left per certificate). */
  labelledGauge(name: string, help: string, read: () => readonly { labels: Record<string, string>; value: number }[]): void {
    this.#labelled.set(name, { help, read });
  }

  /** The exposition text. */
  async render(): Promise<string> {
    const out: string[] = [
      "# HELP http_requests_total Requests by route template and status.",
      "# TYPE http_requests_total counter",
    ];
    for (const [route, byStatus] of this.#requests) {
      for (const [status, v] of byStatus) out.push(`http_requests_total${_labels({ route, status: String(status) })} ${v}`);
    }
    out.push("# HELP http_request_duration_seconds Request latency.", "# TYPE http_request_duration_seconds histogram");
    BUCKETS.forEach((b, i) => out.push(`http_request_duration_seconds_bucket{le="${b}"} ${this.#counts[i]}`));
    out.push(`http_request_duration_seconds_bucket{le="+Inf"} ${this.#total}`);
    out.push(`http_request_duration_seconds_sum ${this.#sum}`, `http_request_duration_seconds_count ${this.#total}`);
    for (const [name, c] of this.#counters) {
      out.push(`# HELP ${name} ${c.help}`, `# TYPE ${name} counter`);
      for (const [k, v] of c.values) out.push(`${name}${k} ${v}`);
    }
    for (const [name, g] of this.#gauges) out.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`, `${name} ${await g.read()}`);
    for (const [name, g] of this.#labelled) {
      out.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`);
      for (const s of g.read()) out.push(`${name}${_labels(s.labels)} ${s.value}`);
    }
    return `${out.join("\n")}\n`;
  }
}
