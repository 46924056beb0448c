import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { bumpCounter, OPS_COUNTERS } from '../../lib/ops-counters';
import { validate } from '../../lib/validate';
import { WebhookSignatureError } from '../../ports/payments';
import { CancelBodySchema, RefundIdParamSchema, VerifyQuerySchema } from './contract';
import { cancelCheckout, markRefunded, receiveWebhook, refundList, verifyPayment } from './service';

export const paymentsRoutes = new Hono<AppEnv>()
  // Stripe webhook: raw body, signature verified, idempotent (exempt from the CSRF guard).
  .post('/webhook', async (c) => {
    const signature = c.req.header('stripe-signature');
    const raw = await c.req.text();
    // Signature failures are counted per hour (superadmin "Drift" tab; an alert past a threshold).
    const refused = () => bumpCounter(c.var.db, OPS_COUNTERS.webhookSignature, c.var.clock.now());
    if (!signature) {
      await refused();
      return c.json({ error: { code: 'invalid_input', message: 'Signatur saknas.' } }, 400);
    }
    try {
      const outcome = await receiveWebhook(c.var.deps, { rawBody: raw, signature });
      return c.json({ received: true, outcome });
    } catch (err) {
      if (err instanceof WebhookSignatureError) {
        await refused();
        return c.json({ error: { code: 'invalid_input', message: 'Ogiltig signatur.' } }, 400);
      }
      throw err;
    }
  })
  .get('/verify', validate('query', VerifyQuerySchema), async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await verifyPayment(c.var.deps, c.var.user, { sessionId: c.req.valid('query').session_id }));
  })
  // The support address shown in the payment failure dialogs (SUPPORT_EMAIL).
  .get('/support', (c) => c.json({ supportEmail: c.var.config.supportEmail }))
  .post('/cancel', validate('json', CancelBodySchema), async (c) => {
    return c.json(await cancelCheckout(c.var.deps, c.var.user, c.req.valid('json')));
  })
  // Superadmin: money to give back ('Att återbetala'), and marking one refunded by hand.
  .get('/refunds', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await refundList(c.var.deps, c.var.user));
  })
  .post('/refunds/:id/refunded', validate('param', RefundIdParamSchema), async (c) =>
    c.json(await markRefunded(c.var.deps, c.var.user, { id: c.req.valid('param').id })),
  );
