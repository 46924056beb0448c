/** Issue 4: registration, verification, resend, password reset (tokens, expiry, reuse, enumeration). */
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailTokens, mailOutbox, passwordCredentials, userRoles, users } from '../../worker/db/schema';
import { registrationErrors, safeRedirect } from '../../worker/features/auth/contract';
import { deleteExpiredEmailTokens } from '../../worker/features/auth/queries';
import { call, callJson, createUser, createVenue, snapshot, testDb, unique } from '../factories';

function sessionCookie(res: Response): string | null {
  for (const c of res.headers.getSetCookie()) {
    const m = /(?:^|\s)qk_session=([^;]*)/.exec(c);
    if (m?.[1]) return `qk_session=${m[1]}`;
  }
  return null;
}

async function lastMail(to: string) {
  const [row] = await testDb().select().from(mailOutbox).where(eq(mailOutbox.toEmail, to)).orderBy(desc(mailOutbox.createdAt)).limit(1);
  return row ?? null;
}

const T0 = '2030-05-10T08:00:00.000Z';
const plus = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();
const email = () => `${unique('reg')}@test.local`;

function linkIn(text: string, path: string): URL {
  const m = text.match(/https?:\/\/[^\s]+/g) ?? [];
  const hit = m.find((l) => l.includes(path));
  if (!hit) throw new Error(`no ${path} link in ${text}`);
  return new URL(hit);
}

async function registerAndGetToken(address: string, extra: Record<string, unknown> = {}, clock = T0) {
  const r = await callJson('/api/auth/register', { body: { email: address, password: 'hemligt1', confirmPassword: 'hemligt1', ...extra }, clock });
  expect(r.status).toBe(201);
  const mail = (await lastMail(address.toLowerCase()))!;
  const link = linkIn(mail.text, '/verify');
  return { token: link.searchParams.get('token')!, link, mail };
}

describe('POST /api/auth/register', () => {
  it('creates an unverified user without roles and mails a verification link to APP_URL', async () => {
    const address = email();
    const { link, mail } = await registerAndGetToken(address.toUpperCase());
    expect(mail.subject).toContain('Bekräfta');
    expect(link.origin).toBe('http://localhost');
    expect(link.pathname).toBe('/verify');
    const [u] = await testDb().select().from(users).where(eq(users.email, address));
    expect(u!.emailVerifiedAt).toBeNull();
    expect(await testDb().select().from(userRoles).where(eq(userRoles.userId, u!.id))).toEqual([]);
    // Only the hash of the token is stored.
    const [tok] = await testDb().select().from(emailTokens).where(eq(emailTokens.userId, u!.id));
    expect(tok!.tokenHash).not.toBe(link.searchParams.get('token'));
    const [cred] = await testDb().select().from(passwordCredentials).where(eq(passwordCredentials.userId, u!.id));
    expect(cred!.hash).toMatch(/^pbkdf2-sha256\$100000\$/);
  });

  it('rejects bad input with the spec messages and stores nothing', async () => {
    const before = await snapshot(['users', 'email_tokens', 'mail_outbox']);
    const r = await callJson('/api/auth/register', { body: { email: 'fel adress', password: '123', confirmPassword: '124' } });
    expect(r.status).toBe(400);
    const messages = r.body.error.issues.map((i: { message: string }) => i.message);
    expect(messages).toContain('Ogiltig e-postadress');
    expect(messages).toContain('Lösenordet måste vara minst 6 tecken långt');
    const r2 = await callJson('/api/auth/register', { body: { email: email(), password: '123456', confirmPassword: '1234567' } });
    expect(r2.body.error.issues.map((i: { message: string }) => i.message)).toContain('Lösenorden matchar inte');
    expect(await snapshot(['users', 'email_tokens', 'mail_outbox'])).toEqual(before);
  });

  it('answers 409 for an e-mail that already has a verified account, and changes nothing', async () => {
    const u = await createUser();
    const before = await snapshot(['users', 'password_credentials', 'email_tokens']);
    const r = await callJson('/api/auth/register', { body: { email: u.email, password: 'annat-losen', confirmPassword: 'annat-losen' } });
    expect(r.status).toBe(409);
    expect(r.body.error.message).toBe('E-postadressen är redan registrerad');
    expect(await snapshot(['users', 'password_credentials', 'email_tokens'])).toEqual(before);
  });

  it('limits registration to 5 attempts per e-mail per 15 minutes', async () => {
    const address = email();
    for (let i = 0; i < 5; i++) {
      const r = await call('/api/auth/register', { body: { email: address, password: 'hemligt1', confirmPassword: 'hemligt1' }, clock: plus(T0, i * 1000) });
      expect(r.status).toBe(201);
    }
    const blocked = await callJson('/api/auth/register', {
      body: { email: address, password: 'hemligt1', confirmPassword: 'hemligt1' },
      clock: plus(T0, 6000),
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.message).toMatch(/^För många försök.*Vänta 15 minuter/);
    const later = await call('/api/auth/register', {
      body: { email: address, password: 'hemligt1', confirmPassword: 'hemligt1' },
      clock: plus(T0, 6000 + 15 * 60 * 1000 + 1000),
    });
    expect(later.status).toBe(201);
  });

  it('keeps takeoverVenue in the verification link and hands it back on verification', async () => {
    const house = await createUser();
    const venue = await createVenue(house.id);
    const { link, mail, token } = await registerAndGetToken(email(), { takeoverVenue: venue.id });
    expect(link.searchParams.get('takeoverVenue')).toBe(venue.id);
    // Mail to an unconfirmed address quotes no text a stranger chose (issue 26.8): not the business name.
    expect(mail.text).not.toContain(venue.name);
    expect(mail.text).toContain('tar du över verksamheten du valde');
    const v = await callJson('/api/auth/verify', { body: { token }, clock: T0 });
    expect(v.body.takeoverVenue).toBe(venue.id);
  });
});

describe('POST /api/auth/verify', () => {
  it('verifies, grants admin, signs in, welcomes the user and notifies superadmins', async () => {
    const superadmin = await createUser({ roles: ['admin', 'superadmin'] });
    const address = email();
    const { token } = await registerAndGetToken(address);
    const r = await call('/api/auth/verify', { body: { token }, clock: plus(T0, 3600_000) });
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body.user).toMatchObject({ email: address, roles: ['admin'], isSuperadmin: false });
    const cookie = sessionCookie(r)!;
    expect((await callJson('/api/auth/session', { cookie })).body.user.email).toBe(address);
    expect((await lastMail(address))!.subject).toContain('Välkommen');
    const notice = await testDb()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toEmail, superadmin.email), eq(mailOutbox.subject, `Ny användare: ${address}`)));
    expect(notice).toHaveLength(1);
  });

  it('refuses a used token (single use)', async () => {
    const { token } = await registerAndGetToken(email());
    expect((await call('/api/auth/verify', { body: { token }, clock: T0 })).status).toBe(200);
    const again = await callJson('/api/auth/verify', { body: { token }, clock: T0 });
    expect(again.status).toBe(400);
    expect(again.body.error.details.reason).toBe('invalid');
  });

  it('refuses a token after 24 hours as expired and leaves the user unverified', async () => {
    const address = email();
    const { token } = await registerAndGetToken(address);
    const r = await callJson('/api/auth/verify', { body: { token }, clock: plus(T0, 24 * 3600_000 + 1) });
    expect(r.status).toBe(400);
    expect(r.body.error.details.reason).toBe('expired');
    const [u] = await testDb().select().from(users).where(eq(users.email, address));
    expect(u!.emailVerifiedAt).toBeNull();
    const ok = await callJson('/api/auth/verify', { body: { token }, clock: plus(T0, 24 * 3600_000 - 1000) });
    expect(ok.status).toBe(200);
  });

  it('once one verification link is used, the older ones stop working', async () => {
    const address = email();
    const first = await registerAndGetToken(address);
    await callJson('/api/auth/resend', { body: { email: address }, clock: T0 });
    const second = linkIn((await lastMail(address))!.text, '/verify').searchParams.get('token')!;
    expect(second).not.toBe(first.token);
    expect((await call('/api/auth/verify', { body: { token: second }, clock: T0 })).status).toBe(200);
    expect((await callJson('/api/auth/verify', { body: { token: first.token }, clock: T0 })).status).toBe(400);
  });

  it('refuses an unknown token', async () => {
    const r = await callJson('/api/auth/verify', { body: { token: 'x'.repeat(32) } });
    expect(r.status).toBe(400);
  });

  it('makes an e-mail listed in SUPERADMIN_EMAILS a superadmin', async () => {
    await testDb().delete(users).where(eq(users.email, 'super@test.local'));
    const { token } = await registerAndGetToken('super@test.local');
    const r = await callJson('/api/auth/verify', { body: { token }, clock: T0 });
    expect(r.body.user.roles.sort()).toEqual(['admin', 'superadmin']);
    expect(r.body.user.isSuperadmin).toBe(true);
  });

  it('an unverified account registered again gets the new password (the old link still works once)', async () => {
    const address = email();
    const first = await registerAndGetToken(address, {}, T0);
    await callJson('/api/auth/register', { body: { email: address, password: 'andra-losen', confirmPassword: 'andra-losen' }, clock: T0 });
    expect((await call('/api/auth/verify', { body: { token: first.token }, clock: T0 })).status).toBe(200);
    expect((await call('/api/auth/login', { body: { email: address, password: 'andra-losen' }, clock: T0 })).status).toBe(200);
    expect((await call('/api/auth/login', { body: { email: address, password: 'hemligt1' }, clock: T0 })).status).toBe(401);
  });
});

describe('POST /api/auth/resend', () => {
  it('sends a new link to an unverified account and nothing to others, with the same answer', async () => {
    const address = email();
    await registerAndGetToken(address);
    const count = async (to: string) => (await testDb().select().from(mailOutbox).where(eq(mailOutbox.toEmail, to))).length;
    const before = await count(address);
    const r1 = await callJson('/api/auth/resend', { body: { email: address } });
    expect(r1.status).toBe(200);
    expect(await count(address)).toBe(before + 1);
    const verified = await createUser();
    const r2 = await callJson('/api/auth/resend', { body: { email: verified.email } });
    const r3 = await callJson('/api/auth/resend', { body: { email: email() } });
    expect(r2.body).toEqual(r1.body);
    expect(r3.body).toEqual(r1.body);
    expect(await count(verified.email)).toBe(0);
  });
});

describe('password reset', () => {
  async function resetToken(address: string, clock = T0) {
    const r = await callJson('/api/auth/forgot', { body: { email: address }, clock });
    expect(r.status).toBe(200);
    const [mail] = await testDb().select().from(mailOutbox).where(eq(mailOutbox.toEmail, address)).orderBy(desc(mailOutbox.createdAt)).limit(1);
    return linkIn(mail!.text, '/update-password').searchParams.get('token')!;
  }

  it('answers the same for known and unknown e-mails; mails only the known one', async () => {
    const u = await createUser();
    const known = await callJson('/api/auth/forgot', { body: { email: u.email } });
    const nobody = `${unique('nobody')}@test.local`;
    const unknown = await callJson('/api/auth/forgot', { body: { email: nobody } });
    expect(known.status).toBe(200);
    expect(unknown).toMatchObject({ status: 200, body: known.body });
    expect(await lastMail(nobody)).toBeNull();
    expect((await lastMail(u.email))!.subject).toContain('Återställ');
  });

  it('sets the new password, ends every session, and the link works once', async () => {
    const u = await createUser();
    const other = await createUser({ email: `${unique('o')}@test.local` });
    const token = await resetToken(u.email);
    expect((await callJson('/api/auth/reset/check', { body: { token }, clock: T0 })).status).toBe(200);
    const r = await callJson('/api/auth/reset', { body: { token, password: 'nytt-losen', confirmPassword: 'nytt-losen' }, clock: plus(T0, 60_000) });
    expect(r.status).toBe(200);
    expect((await callJson('/api/auth/session', { cookie: u.cookie })).body.user).toBeNull();
    expect((await callJson('/api/auth/session', { cookie: other.cookie })).body.user.id).toBe(other.id);
    expect((await call('/api/auth/login', { body: { email: u.email, password: 'nytt-losen' }, clock: T0 })).status).toBe(200);
    const again = await callJson('/api/auth/reset', { body: { token, password: 'tredje-losen', confirmPassword: 'tredje-losen' }, clock: plus(T0, 60_000) });
    expect(again.status).toBe(400);
    expect((await callJson('/api/auth/reset/check', { body: { token }, clock: T0 })).status).toBe(400);
  });

  it('using one reset link retires the other reset links of the account', async () => {
    const u = await createUser();
    const older = await resetToken(u.email);
    const newer = await resetToken(u.email);
    expect((await call('/api/auth/reset', { body: { token: newer, password: 'nytt-losen', confirmPassword: 'nytt-losen' }, clock: T0 })).status).toBe(200);
    expect((await call('/api/auth/reset', { body: { token: older, password: 'annat-losen', confirmPassword: 'annat-losen' }, clock: T0 })).status).toBe(400);
  });

  it('refuses a link older than 1 hour and keeps the old password', async () => {
    const u = await createUser();
    const token = await resetToken(u.email);
    const r = await callJson('/api/auth/reset', { body: { token, password: 'nytt-losen', confirmPassword: 'nytt-losen' }, clock: plus(T0, 3600_000 + 1) });
    expect(r.status).toBe(400);
    expect(r.body.error.details.reason).toBe('expired');
    expect((await call('/api/auth/login', { body: { email: u.email, password: u.password }, clock: T0 })).status).toBe(200);
  });

  it('rejects mismatching passwords and stores nothing', async () => {
    const u = await createUser();
    const token = await resetToken(u.email);
    const before = await snapshot(['password_credentials', 'sessions', 'email_tokens']);
    const r = await callJson('/api/auth/reset', { body: { token, password: 'nytt-losen', confirmPassword: 'annat-losen' }, clock: T0 });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('Lösenorden matchar inte');
    expect(await snapshot(['password_credentials', 'sessions', 'email_tokens'])).toEqual(before);
  });
});

describe('shared registration rules (contract used by the form and the worker)', () => {
  it('collects every spec message in order', () => {
    expect(registrationErrors({ email: '', password: '', confirmPassword: 'x' })).toEqual(['E-postadress krävs', 'Lösenord krävs', 'Lösenorden matchar inte']);
    expect(registrationErrors({ email: 'a b@c.se', password: '12345', confirmPassword: '12345' })).toEqual([
      'Ogiltig e-postadress',
      'Lösenordet måste vara minst 6 tecken långt',
    ]);
    expect(registrationErrors({ email: 'anna@example.se', password: '123456', confirmPassword: '123456' })).toEqual([]);
  });

  it('only accepts same-site paths as redirect targets', () => {
    expect(safeRedirect('/admin?x=1')).toBe('/admin?x=1');
    expect(safeRedirect('//evil.example')).toBeNull();
    expect(safeRedirect('/\\evil.example')).toBeNull();
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect(null)).toBeNull();
  });
});

describe('nightly clean-up of e-mail tokens', () => {
  it('deletes expired tokens and tokens used more than a day ago, keeps live ones', async () => {
    const u = await createUser();
    const now = new Date('2031-01-10T03:00:00.000Z').getTime();
    const row = (id: string, expiresAt: number, usedAt: number | null) => ({
      id,
      userId: u.id,
      purpose: 'reset_password' as const,
      tokenHash: `${id}-hash`,
      expiresAt,
      usedAt,
    });
    const ids = { expired: unique('exp'), usedLongAgo: unique('old'), live: unique('live'), usedToday: unique('today') };
    await testDb()
      .insert(emailTokens)
      .values([
        row(ids.expired, now - 1, null),
        row(ids.usedLongAgo, now + 3600_000, now - 2 * 24 * 3600_000),
        row(ids.live, now + 3600_000, null),
        row(ids.usedToday, now + 3600_000, now - 3600_000),
      ]);
    await deleteExpiredEmailTokens(testDb(), new Date(now));
    const left = (await testDb().select().from(emailTokens).where(eq(emailTokens.userId, u.id))).map((r) => r.id).sort();
    expect(left).toEqual([ids.live, ids.usedToday].sort());
  });
});
