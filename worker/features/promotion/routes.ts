import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { createPayments } from '../../ports/payments';
import { AvailabilityRequestSchema, MarketingCheckoutSchema, PromotionCheckoutSchema } from './contract';
import { getPricing } from './pricing';
import { checkAvailability, createMarketingCheckout, createPromotionCheckout, type CheckoutDeps } from './service';

async function checkoutDeps(c: { var: AppEnv['Variables'] }): Promise<CheckoutDeps> {
  const payments = createPayments(c.var.config);
  return {
    db: c.var.db,
    actor: c.var.user,
    payments,
    pricing: await getPricing(payments, c.var.config.stripe, c.var.clock.now()),
    now: c.var.clock.now(),
    today: c.var.clock.today(),
    appUrl: c.var.config.appUrl,
  };
}

export const promotionRoutes = new Hono<AppEnv>()
  .get('/pricing', async (c) => {
    const pricing = await getPricing(createPayments(c.var.config), c.var.config.stripe, c.var.clock.now());
    return c.json(pricing);
  })
  .post('/availability', validate('json', AvailabilityRequestSchema), async (c) => {
    const result = await checkAvailability(c.var.db, c.var.user, c.req.valid('json').quizIds, c.var.clock.now());
    return c.json(result);
  })
  .post('/marketing-checkout', validate('json', MarketingCheckoutSchema), async (c) => {
    const result = await createMarketingCheckout(await checkoutDeps(c), c.req.valid('json'));
    return c.json(result, 201);
  })
  .post('/checkout', validate('json', PromotionCheckoutSchema), async (c) => {
    const result = await createPromotionCheckout(await checkoutDeps(c), c.req.valid('json'));
    return c.json(result, 201);
  });
