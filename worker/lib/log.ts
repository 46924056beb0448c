/**
 * Logs worth reading (issue 30 §3): Workers Logs (wrangler.toml [observability]) indexes JSON written to
 * the console, so each request, job run, cron invocation, queue batch and workflow end writes exactly one
 * JSON line through `logLine`. Fields are ids, route patterns, statuses, durations and counts — never
 * personal data: no IP, no e-mail, no session id, no raw path or query (a route pattern instead). Free
 * text (an error message) passes `redact` first, which blanks anything shaped like an e-mail or an IP.
 *
 * The shapes (checked by test/integration/logs.test.ts):
 *   { type: 'request', requestId, method, route, status, ms, d1: { rowsRead, rowsWritten, statements } | null, cache }
 *   { type: 'job', job, runId, status, ms, result | error }          (every recordJob run: crons, workflows)
 *   { type: 'cron', cron, status, ms, failed?, error? }              (one scheduled() invocation)
 *   { type: 'queue', queue, messages, status, ms, error? }           (one queue batch)
 *   { type: 'workflow', workflow, instance, status, ... }            (a workflow instance's end)
 */

export type LogLine = { type: 'request' | 'job' | 'cron' | 'queue' | 'workflow' } & Record<string, unknown>;

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[a-z]{2,}/gi;
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}\b/g;
// IPv6: eight hex groups, or groups around a "::" (a clock time like 12:30:00 has neither).
const IPV6 = /\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b|(?:\b[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,6})?::(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,6}\b)?/gi;

/** Blanks e-mail addresses and IP addresses in free text (error messages) before it is logged. */
export function redact(text: string): string {
  return text
    .replace(EMAIL, '[e-post]')
    .replace(IPV4, '[ip]')
    .replace(IPV6, (m) => (m.length > 2 ? '[ip]' : m));
}

/** The error of a failed run as one short, redacted line. */
export function errorText(err: unknown): string {
  return redact(String((err as Error | undefined)?.message ?? err)).slice(0, 500);
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clean(v)]));
  return value;
}

/** Writes one structured line (strings redacted). */
export function logLine(line: LogLine): void {
  console.log(JSON.stringify(clean(line)));
}

/**
 * Runs `fn` and writes one line with `fields`, `status` ('ok' | 'failed'), `ms` and the redacted error.
 * The error is thrown on: logging never hides a failure.
 */
export async function timed<T>(fields: LogLine, fn: () => Promise<T>, extra?: (result: T) => Record<string, unknown>): Promise<T> {
  const started = Date.now();
  try {
    const result = await fn();
    logLine({ ...fields, status: 'ok', ms: Date.now() - started, ...(extra?.(result) ?? {}) });
    return result;
  } catch (err) {
    logLine({ ...fields, status: 'failed', ms: Date.now() - started, error: errorText(err) });
    throw err;
  }
}
