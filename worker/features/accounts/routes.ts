import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { requireActor } from '../../lib/authz';
import { clientKeyOf } from '../../lib/rate-limit';
import { validate } from '../../lib/validate';
import { clearSessionCookie } from '../../middleware/session';
import { ChangeEmailSchema, ChangePasswordSchema, EmailChangeConfirmSchema, PasswordOnlySchema, TotpCodeSchema } from './contract';
import {
  accountSummary,
  changePassword,
  confirmEmailChange,
  confirmTotpEnrolment,
  deleteUserAccount,
  removeTotp,
  requestEmailChange,
  startTotpEnrolment,
} from './service';

/** The signed-in user's own account: /api/account/*. */
export const accountRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    requireActor(c.var.user);
    c.header('cache-control', 'no-store');
    return c.json(await accountSummary(c.var.deps, { userId: c.var.user.id }));
  })
  .delete('/', async (c) => {
    requireActor(c.var.user);
    await deleteUserAccount(c.var.deps, { userId: c.var.user.id });
    clearSessionCookie(c);
    return c.json({ ok: true });
  })
  .post('/password', validate('json', ChangePasswordSchema), async (c) => {
    requireActor(c.var.user);
    const { currentPassword, password } = c.req.valid('json');
    await changePassword(c.var.deps, { user: c.var.user, currentPassword, password, keepSessionId: c.var.session?.id });
    return c.json({ ok: true });
  })
  .post('/email', validate('json', ChangeEmailSchema), async (c) => {
    requireActor(c.var.user);
    return c.json(await requestEmailChange(c.var.deps, { ...c.req.valid('json'), user: c.var.user, clientKey: clientKeyOf(c.req) }));
  })
  .post('/email/confirm', validate('json', EmailChangeConfirmSchema), async (c) => {
    const result = await confirmEmailChange(c.var.deps, c.req.valid('json'));
    return c.json({ email: result.email });
  })
  .post('/totp/enroll', validate('json', PasswordOnlySchema), async (c) => {
    requireActor(c.var.user);
    return c.json(await startTotpEnrolment(c.var.deps, { user: c.var.user, password: c.req.valid('json').password }));
  })
  .post('/totp/confirm', validate('json', TotpCodeSchema), async (c) => {
    requireActor(c.var.user);
    await confirmTotpEnrolment(c.var.deps, { userId: c.var.user.id, code: c.req.valid('json').code });
    return c.json({ ok: true });
  })
  .post('/totp/remove', validate('json', PasswordOnlySchema), async (c) => {
    requireActor(c.var.user);
    await removeTotp(c.var.deps, { userId: c.var.user.id, password: c.req.valid('json').password });
    return c.json({ ok: true });
  });
