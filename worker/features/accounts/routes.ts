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
    return c.json(await accountSummary(c.var.db, c.var.user.id, c.var.clock.today()));
  })
  .delete('/', async (c) => {
    requireActor(c.var.user);
    await deleteUserAccount(c.var.db, c.var.user.id, c.var.clock);
    clearSessionCookie(c);
    return c.json({ ok: true });
  })
  .post('/password', validate('json', ChangePasswordSchema), async (c) => {
    requireActor(c.var.user);
    const { currentPassword, password } = c.req.valid('json');
    await changePassword(c.var.db, c.var.mailer, c.var.user, { currentPassword, password }, c.var.session?.id, c.var.clock.now());
    return c.json({ ok: true });
  })
  .post('/email', validate('json', ChangeEmailSchema), async (c) => {
    requireActor(c.var.user);
    return c.json(await requestEmailChange(c.var.db, c.var.mailer, c.var.config, c.var.user, c.req.valid('json'), c.var.clock.now(), clientKeyOf(c.req)));
  })
  .post('/email/confirm', validate('json', EmailChangeConfirmSchema), async (c) => {
    const result = await confirmEmailChange(c.var.db, c.var.mailer, c.req.valid('json').token, c.var.clock.now());
    return c.json({ email: result.email });
  })
  .post('/totp/enroll', validate('json', PasswordOnlySchema), async (c) => {
    requireActor(c.var.user);
    return c.json(await startTotpEnrolment(c.var.db, c.var.user, c.req.valid('json').password, c.var.clock.now()));
  })
  .post('/totp/confirm', validate('json', TotpCodeSchema), async (c) => {
    requireActor(c.var.user);
    await confirmTotpEnrolment(c.var.db, c.var.user.id, c.req.valid('json').code, c.var.clock.now());
    return c.json({ ok: true });
  })
  .post('/totp/remove', validate('json', PasswordOnlySchema), async (c) => {
    requireActor(c.var.user);
    await removeTotp(c.var.db, c.var.user.id, c.req.valid('json').password, c.var.clock.now());
    return c.json({ ok: true });
  });
