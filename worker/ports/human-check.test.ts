import { describe, expect, it } from 'vitest';
import { createLocalHumanCheck, createTurnstile, LOCAL_FAIL_TOKEN, refuseAllHumanCheck, TURNSTILE_TEST_SECRET, TURNSTILE_VERIFY_URL } from './human-check';

/** A strict fake of siteverify: fails on any unexpected call; answers like Turnstile's test secrets. */
function fakeSiteverify(answer: (form: FormData) => unknown, status = 200) {
  const calls: FormData[] = [];
  const fetcher = (async (url: string | URL | Request, init?: RequestInit) => {
    if (String(url) !== TURNSTILE_VERIFY_URL || init?.method !== 'POST') throw new Error(`unexpected call ${String(url)}`);
    const form = init.body as FormData;
    calls.push(form);
    return new Response(JSON.stringify(answer(form)), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { fetcher, calls };
}

describe('Turnstile port', () => {
  it('posts secret, token and client address to siteverify and passes on success', async () => {
    const fake = fakeSiteverify(() => ({ success: true }));
    const check = createTurnstile({ secret: TURNSTILE_TEST_SECRET, fetcher: fake.fetcher });
    expect(await check.verify('XXXX.DUMMY.TOKEN.XXXX', '198.51.100.1')).toBe(true);
    expect(fake.calls[0]!.get('secret')).toBe(TURNSTILE_TEST_SECRET);
    expect(fake.calls[0]!.get('response')).toBe('XXXX.DUMMY.TOKEN.XXXX');
    expect(fake.calls[0]!.get('remoteip')).toBe('198.51.100.1');
  });

  it('refuses on success: false, on an HTTP error and without a token (no call)', async () => {
    expect(
      await createTurnstile({
        secret: '2x0000000000000000000000000000000AA',
        fetcher: fakeSiteverify(() => ({ success: false, 'error-codes': ['invalid-input-response'] })).fetcher,
      }).verify('t', null),
    ).toBe(false);
    expect(await createTurnstile({ secret: 's', fetcher: fakeSiteverify(() => ({}), 500).fetcher }).verify('t', null)).toBe(false);
    const fake = fakeSiteverify(() => ({ success: true }));
    expect(await createTurnstile({ secret: 's', fetcher: fake.fetcher }).verify('', null)).toBe(false);
    expect(fake.calls).toHaveLength(0);
  });

  it('the local stand-in passes any token but the fail token; production without a secret refuses all', async () => {
    const local = createLocalHumanCheck();
    expect(await local.verify('local-pass', null)).toBe(true);
    expect(await local.verify(LOCAL_FAIL_TOKEN, null)).toBe(false);
    expect(await local.verify('', null)).toBe(false);
    expect(await refuseAllHumanCheck.verify('anything', null)).toBe(false);
  });
});
