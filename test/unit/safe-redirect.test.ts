/**
 * Issue 13.9: redirect targets after sign-in. `/login?redirect=/%09/evil.example` passed the old check
 * (the browser drops the tab and reads "//evil.example"), leaving the user on "Omdirigerar..." forever.
 */
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
