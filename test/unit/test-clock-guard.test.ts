/**
 * Guard (issue 27 §6): no test depends on the real date, and no test switches itself off.
 *
 * Scans every test file and test helper — test/** (except the bench and soak tools, which measure real
 * time on purpose), worker/**\/*.test.ts, web/**\/*.test.ts(x) — and fails on
 *   - `skipIf`, `runIf`, `.skip(`, `.only(`, `.todo(`: a test that stops running (or runs alone) without anyone noticing;
 *   - `new Date()` / `Date.now()`: the real clock. Stories take their dates from the pinned clock instead
 *     (test/e2e/support/clock.ts; integration requests carry x-clock-now), names take `stamp()`/random ids;
 *   - `if (…) expect(…)` on one line: an assertion that may never run;
 *   - a fixed path under `/tmp`: files every run leaves behind, shared with every other run.
 * A real-clock read that is legitimate (a real-time wait, a check of real time itself) is listed in ALLOWED
 * below with its reason; files another helper owns are listed in OWNED_ELSEWHERE until they are fixed there.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

interface Allowed {
  file: string;
  /** A substring of the line. */
  line: string;
  reason: string;
}

const ALLOWED: Allowed[] = [
  // Real-time waits: a deadline for something to happen, not a date the test reasons about.
  {
    file: 'test/e2e/support/global-setup.ts',
    line: 'runningPin(testNow(), new Date())',
    reason: 'the one wall-clock anchor of the running pin: from here on, server and browsers count from TEST_NOW',
  },
  { file: 'test/integration/follows.test.ts', line: 'const until = Date.now() + timeoutMs', reason: 'real-time wait for a mail' },
  { file: 'test/integration/quizmasters.test.ts', line: 'const until = Date.now() + timeoutMs', reason: 'real-time wait for a mail' },
  { file: 'test/integration/quizmasters.test.ts', line: 'if (Date.now() > until)', reason: 'real-time wait for a mail' },
  { file: 'test/integration/follows.test.ts', line: 'if (Date.now() > until)', reason: 'real-time wait for a mail' },
  { file: 'test/integration/follows.test.ts', line: 'let since = Date.now();', reason: 'real-time wait until the mail queue is quiet' },
  { file: 'test/integration/follows.test.ts', line: 'const end = Date.now() + timeoutMs;', reason: 'real-time wait until the mail queue is quiet' },
  {
    file: 'test/integration/follows.test.ts',
    line: 'while (Date.now() - since < quietMs && Date.now() < end)',
    reason: 'real-time wait until the mail queue is quiet',
  },
  { file: 'test/integration/follows.test.ts', line: 'since = Date.now();', reason: 'real-time wait until the mail queue is quiet' },
  // Code under test that runs on real time by design.
  {
    file: 'test/integration/jobs.test.ts',
    line: 'new Date(Date.now() - d * 86_400_000)',
    reason: 'the outbox clean-up counts 30 days of real time on purpose (worker/ports/mailer.ts), whatever the pinned clock says',
  },
  {
    file: 'test/integration/jobs.test.ts',
    line: 'new Date(Date.now() - m * 60_000)',
    reason: 'the outbox redelivery sweep selects rows 10 minutes to 7 days old by the database clock (real time), whatever the pinned clock says',
  },
  {
    file: 'test/integration/security/payments-faults.test.ts',
    line: 'Math.floor(Date.now() / 1000) - 3600',
    reason: "Stripe's signature tolerance is 300 s of real time",
  },
  {
    file: 'worker/lib/holidays.test.ts',
    line: 'new Date().getUTCFullYear() + 10',
    reason: 'a maintenance alarm: the holiday table must reach ten real years ahead',
  },
  {
    file: 'test/factories.ts',
    line: 'opts.now ?? new Date()',
    reason: 'a session created now stays valid for every request clock up to now + 30 days; tests pinned later pass opts.now',
  },
];

/** Owned by other helpers in wave 3 (issue 27); fixed in their branches, then removed from here. */
const OWNED_ELSEWHERE = new Set<string>([]);

const SKIPPED_DIRS = new Set(['node_modules', 'fixtures', 'bench', 'soak']);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) walk(path, out);
    } else if (/\.(ts|tsx|mjs)$/.test(name)) {
      out.push(path);
    }
  }
  return out;
}

/** Every file the guard reads: test/** helpers and tests, and the unit tests beside the code. */
function guardedFiles(): string[] {
  const tests = walk(join(ROOT, 'test'));
  const beside = [...walk(join(ROOT, 'worker')), ...walk(join(ROOT, 'web'))].filter((f) => /\.test\.tsx?$/.test(f));
  return [...tests, ...beside]
    .map((f) => relative(ROOT, f))
    .filter((f) => f !== 'test/unit/test-clock-guard.test.ts')
    .sort();
}

const RULES: Array<{ name: string; re: RegExp }> = [
  { name: 'switches a test off or on conditionally', re: /\.(skipIf|runIf)\s*\(/ },
  { name: 'skips, focuses or postpones a test', re: /\b(it|test|describe|suite)\.(skip|only|todo)\b/ },
  { name: 'reads the real clock', re: /new Date\(\s*\)|Date\.now\(\s*\)/ },
  { name: 'asserts conditionally', re: /\bif\s*\(.*\)\s*expect(\.poll)?\(/ },
  // Every run wrote three unasserted screenshots into the real /tmp (owner-paths.test.ts, 2026-11-28): a file a test
  // needs goes into a private folder of the test tmpdir (test/memory-tmpdir.ts) and is removed.
  { name: 'writes to a fixed path in /tmp (shared by every run, never removed)', re: /['"`]\/tmp\// },
];

/** The violations in one file's text: `file:line rule: text`. */
function violations(file: string, text: string, allowed: Allowed[] = ALLOWED): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    for (const rule of RULES) {
      if (!rule.re.test(code)) continue;
      if (rule.name === 'reads the real clock' && allowed.some((a) => a.file === file && line.includes(a.line))) continue;
      out.push(`${file}:${i + 1} ${rule.name}: ${line.trim()}`);
    }
  });
  return out;
}

describe('tests own their clock and never switch themselves off', () => {
  it('no test file reads the real clock, skips itself or asserts conditionally (outside the allowlist)', () => {
    const found = guardedFiles()
      .filter((f) => !OWNED_ELSEWHERE.has(f))
      .flatMap((f) => violations(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('every allowlist entry still matches a line (no stale exemptions), each with a reason', () => {
    for (const a of ALLOWED) {
      expect(a.reason.length, `${a.file}: ${a.line}`).toBeGreaterThan(10);
      expect(readFileSync(join(ROOT, a.file), 'utf8'), `${a.file} has no line with "${a.line}"`).toContain(a.line);
    }
  });

  it('catches what it is meant to catch', () => {
    const bad = [
      "it.skipIf(tooLate)('x', () => {});",
      "describe.skip('x', () => {});",
      `it.${'only'}('x', () => {});`,
      'const today = stockholmDate(new Date());',
      'const t = Date.now() + 86_400_000;',
      'if (cached) expect(res.headers.get("x")).toBe("HIT");',
      "await page.screenshot({ path: '/tmp/x.png' });",
    ].join('\n');
    expect(violations('test/e2e/x.test.ts', bad, [])).toHaveLength(7);
    expect(violations('test/e2e/x.test.ts', "const d = new Date('2026-10-25T01:30:00Z');\n// Date.now() in a comment\nexpect(x).toBe(1);", [])).toEqual([]);
  });
});
