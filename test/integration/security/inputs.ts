/**
 * Generators and checks for the bad-input property tests (fast-check). Bounded so the suite stays fast.
 */
import fc from 'fast-check';

/** Runs per property; a fixed seed keeps the suite deterministic (a failure prints its counterexample). */
export const RUNS = 15;
export const SEED = 20261121;

/** Strings that have broken web apps before: control and separator characters, RTL, emoji, payloads. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u2028',
  '\u2029',
  'rad1\u2028rad2',
  '\uFEFF',
  '\u200B\u200D',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  'שלום',
  '🍺🎉👨‍👩‍👧‍👦',
  '\uD800',
  '\uDFFF',
  'Z̸̡̛̛a̵l̶g̷o̸',
  "' OR '1'='1",
  "'; DROP TABLE venues; --",
  '1; DELETE FROM users',
  '" OR ""="',
  '%',
  '%00',
  '%zz',
  '../../etc/passwd',
  '</script><script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "javascript:alert('x')",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant as a plain string
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  'null',
  'true',
  '\\',
  '\\u0000',
  'å'.repeat(300),
];

export const nastyString = fc.constantFrom(...NASTY_STRINGS);
/** Up to 20 000 characters: far beyond every field limit, still a small request. */
export const hugeString = fc.tuple(fc.integer({ min: 1_000, max: 20_000 }), fc.constantFrom('a', 'å', '🍺', '<', '\u2028')).map(([n, ch]) => ch.repeat(n));
/** 20–100 characters of one- to four-byte text: the window just under typical field limits (100). */
export const nearLimitString = fc.tuple(fc.integer({ min: 20, max: 100 }), fc.constantFrom('a', 'ä', '🍺', '%', '_')).map(([n, ch]) => ch.repeat(n));
export const anyString = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 2, arbitrary: nearLimitString },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString },
);
export const nastyNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 1.5, -2147483649, 2147483648, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER - 2, 1e308, -1e308, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
/** Any JSON value (numbers included at their edges). */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: anyString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(nastyString, fc.integer()), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', '__proto__', 'id', 'x'), fc.oneof(nastyString, fc.integer()), { maxKeys: 3 }) },
);

/** A JSON value whose type differs from `valid`'s, and is not null (null may be allowed for optional fields). */
export function wrongType(valid: unknown): fc.Arbitrary<unknown> {
  const str = fc.oneof(nastyString, fc.string({ maxLength: 10 }));
  const num = nastyNumber;
  const obj = fc.constantFrom<unknown>({}, { a: 1 }, { $gt: '' });
  const arr = fc.constantFrom<unknown>([], [1, 2], ['x']);
  if (typeof valid === 'string') return fc.oneof(num, fc.boolean(), obj, arr);
  if (typeof valid === 'number') return fc.oneof(str, fc.boolean(), obj, arr);
  if (typeof valid === 'boolean') return fc.oneof(str, num, obj, arr);
  if (Array.isArray(valid)) return fc.oneof(str, num, fc.boolean(), obj);
  return fc.oneof(str, num, fc.boolean(), arr);
}

/** Raw request bodies that are not the JSON object any endpoint expects. */
export const MALFORMED_BODIES = [
  '',
  '{',
  '{"a":',
  '{"a":1}}',
  "{'a':1}",
  '{"a":1,}',
  '[',
  'nul',
  'undefined',
  '\u0000',
  '{"a":"\u0000',
  'null',
  '[]',
  '[{}]',
  '"text"',
  '42',
  'true',
  '<xml/>',
  'a=1&b=2',
];

/** The Swedish error envelope every refusal must carry. */
export function envelopeProblem(status: number, text: string): string | null {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} without a JSON body: ${text.slice(0, 100)}`;
  }
  const err = body?.error;
  if (!err || typeof err.code !== 'string' || typeof err.message !== 'string' || !err.message) {
    return `status ${status} without { error: { code, message } }: ${text.slice(0, 150)}`;
  }
  if (!isSwedish(err.message)) return `status ${status} with a message that is not Swedish: ${err.message.slice(0, 150)}`;
  return null;
}

const ENGLISH = /\b(invalid|expected|required|received|unrecognized|malformed|unexpected|bad request|must be|is not|too (big|small|long|short)|not found)\b/i;
const SWEDISH =
  /[åäöÅÄÖ]|\b(ogiltig|ogiltigt|ogiltiga|ange|saknas|välj|får|måste|inte|kan|för|fel|hittades|hittad|ingen|inga|minst|högst|tecken|datum|namn|sida|stad|länken|koden|kod|försök|begäran|quizet|quiz|id)\b/i;

export function isSwedish(message: string): boolean {
  return SWEDISH.test(message) && !ENGLISH.test(message);
}

/**
 * Checks `check` on exactly the inputs that `fc.assert(fc.asyncProperty(...arbs, check), { numRuns, seed })` runs
 * (fc.sample of the same tuple with the same seed draws the same values, in the same order), but sends them all at
 * once instead of one after another: workerd answers independent requests side by side, about twice as fast
 * (issue 27). Only for properties whose requests are all refused or only read, so that their order cannot matter.
 * As with `endOnFailure`, nothing is shrunk: a failure names the first failing input in run order and the seed.
 */
export async function checkAllAtOnce<Ts extends unknown[]>(
  arbs: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
  check: (...args: Ts) => Promise<void>,
  opts: { numRuns: number; seed: number },
): Promise<void> {
  const inputs = fc.sample(fc.tuple(...(arbs as fc.Arbitrary<unknown>[])), { numRuns: opts.numRuns, seed: opts.seed }) as unknown as Ts[];
  await allChecked(
    inputs.map((args) => () => check(...args)),
    (i) => `run ${i + 1} of ${inputs.length} { seed: ${opts.seed} }, counterexample ${fc.stringify(inputs[i])}`,
  );
}

/** Runs every check at once and fails with the first failure in list order (all of them finish first). */
export async function allChecked(
  checks: Array<() => Promise<void>>,
  label: (i: number) => string = (i) => `check ${i + 1} of ${checks.length}`,
): Promise<void> {
  const results = await Promise.allSettled(checks.map((c) => c()));
  const i = results.findIndex((r) => r.status === 'rejected');
  if (i < 0) return;
  const reason = (results[i] as PromiseRejectedResult).reason;
  throw new Error(`${label(i)}: ${reason instanceof Error ? reason.message : String(reason)}`, { cause: reason });
}
