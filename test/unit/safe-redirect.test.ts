/**
 * Issue 13.9: redirect targets after sign-in. `/login?redirect=/%09/evil.example` passed the old check
 * (the browser drops the tab and reads "//evil.example"), leaving the user on "Omdirigerar..." forever.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../worker/features/auth/contract';
import { destinationFor, safeTarget } from '../../web/components/auth/messages';

const HOSTILE = [
  '//evil.example',
  '/\\evil.example',
  '/\t/evil.example',
  '/%09/evil.example',
  '/%0A/evil.example',
  '/%0d/evil.example',
  '/%5Cevil.example',
  '/%2F/evil.example',
  '/\\\\evil.example',
  'https://evil.example/admin',
  'javascript:alert(1)',
  '/\u0000/evil.example',
  '%2F%2Fevil.example',
  // Issue 26.8: dot segments that the URL parser removes, leaving "//evil.example".
  '/.//evil.example',
  '/..//evil.example',
  '/%2e//evil.example',
  '/%2E%2E//evil.example',
  '/a/..//evil.example',
  '/./\\evil.example',
  '/.%2f/evil.example',
  '',
  null,
  undefined,
];

describe('safeRedirect / safeTarget', () => {
  it.each(HOSTILE.map((t) => [t]))('refuses %j', (target) => {
    expect(safeRedirect(target)).toBeNull();
    expect(safeTarget(target)).toBeNull();
  });

  it('keeps same-origin paths with their query and hash', () => {
    expect(safeRedirect('/admin/venue/abc?tab=2#x')).toBe('/admin/venue/abc?tab=2#x');
    expect(safeRedirect('/quiz/göteborg')).toBe('/quiz/g%C3%B6teborg');
    expect(safeTarget('/admin/quizzes')).toBe('/admin/quizzes');
  });

  it('never sends a signed-in user back into the auth pages', () => {
    expect(safeTarget('/login?redirect=/admin')).toBeNull();
    expect(destinationFor({ id: 'u', email: 'a@b.se', roles: ['admin'], isSuperadmin: false }, '/%09/evil.example')).toBe('/admin');
  });
});

/**
 * Issue 26.8: fuzzing. Whatever comes in, what comes out is a path that stays on our origin when the
 * browser resolves it against ANY origin, and checking it again changes nothing (what is checked is what
 * is navigated to).
 */
describe('safeRedirect fuzzed with 200 payloads', () => {
  const PIECES = [
    '/',
    '//',
    '\\',
    '.',
    '..',
    '%2e',
    '%2E',
    '%2e%2e',
    '%2f',
    '%2F',
    '%5c',
    '%5C',
    '%09',
    '%0a',
    '\t',
    '\n',
    '%00',
    '%252e',
    '%25',
    'evil.example',
    '@',
    ':',
    'http:',
    'https:',
    '?',
    '#',
    ' ',
    'admin',
    'quiz',
    'ö',
    '\u3002',
    '\uff0f',
    '%E3%80%82',
  ];
  const payload = fc
    .tuple(fc.constantFrom('', '/', '/', '//', '\\'), fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }))
    .map(([head, parts]) => head + parts.join(''));

  it('never yields a target that leaves the site', () => {
    fc.assert(
      fc.property(payload, (target) => {
        const r = safeRedirect(target);
        if (r === null) return;
        expect(r.startsWith('/')).toBe(true);
        expect(r).not.toMatch(/^\/[/\\]/);
        for (const base of ['https://quizkvall.se', 'http://localhost:8787']) {
          expect(new URL(r, base).origin, `${JSON.stringify(target)} → ${r}`).toBe(new URL(base).origin);
        }
        expect(safeRedirect(r)).toBe(r);
        expect(safeTarget(target) === null || safeTarget(target) === r).toBe(true);
      }),
      { numRuns: 200, seed: 26_8 },
    );
  });
});
