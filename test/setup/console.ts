/**
 * An unexpected `console.error` fails the test (STYLE.md "Tests"). The Worker runs in the same isolate
 * as the integration tests, so this also catches what the app logs (onError's 500s, failed cron
 * tasks, mail errors). A test that provokes an error on purpose declares it first:
 *
 *   const errors = expectConsoleError(/nightly task .* failed/);
 *   …                      // the code that logs
 *   errors.verify();       // optional: fails unless a matching error was logged
 *
 * Only calls matching a declared pattern are allowed; the declaration ends with the test.
 */
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { format } from 'node:util';

/**
 * The Worker's structured log lines (worker/lib/log.ts: one per request, job run, cron, queue batch) are dropped
 * here, inside the isolate, instead of being sent one by one to vitest's main process, which dropped them anyway
 * (onConsoleLog in vitest.config.ts): ~5 ms per GET request (issue 27). A test that reads them spies on console.log
 * (test/integration/logs.test.ts); its spy replaces this filter while it lives and sees every line.
 */
const STRUCTURED = '{"type":"';
const passLog = console.log as typeof console.log & { structuredLinesDropped?: true };
if (!passLog.structuredLinesDropped) {
  const filtered = Object.assign((...args: unknown[]) => (typeof args[0] === 'string' && args[0].startsWith(STRUCTURED) ? undefined : passLog(...args)), {
    structuredLinesDropped: true as const,
  });
  console.log = filtered;
}

let logged: string[] = [];
let expected: RegExp[] = [];
let spy: { mockRestore(): void } | null = null;

beforeEach(() => {
  logged = [];
  expected = [];
  spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    logged.push(format(...args));
  });
});

afterEach(() => {
  spy?.mockRestore();
  spy = null;
  const unexpected = logged.filter((line) => !expected.some((pattern) => pattern.test(line)));
  logged = [];
  expected = [];
  if (unexpected.length) {
    throw new Error(`unexpected console.error (declare it with expectConsoleError() if the test provokes it):\n${unexpected.join('\n---\n')}`);
  }
});

/** Declares that this test logs an error matching `pattern`; `verify()` asserts one was logged so far. */
export function expectConsoleError(pattern: RegExp): { verify(): void } {
  expected.push(pattern);
  return {
    verify() {
      const hits = logged.filter((line) => pattern.test(line)).length;
      expect(hits, `expected a console.error matching ${pattern}`).toBeGreaterThan(0);
    },
  };
}
