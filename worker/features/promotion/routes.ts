import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { AvailabilityRequestSchema, MarketingCheckoutSchema, PromotionCheckoutSchema } from './contract';
import { getPricing } from './pricing';
import { checkAvailability, createMarketingCheckout, createPromotionCheckout } from './service';

export const promotionRoutes = new Hono<AppEnv>()
  .get('/pricing', async (c) => {
    const pricing = await getPricing(c.var.deps);
    return c.json(pricing);
  })
  .post('/availability', validate('json', AvailabilityRequestSchema), async (c) => {
    const result = await checkAvailability(c.var.deps, c.var.user, c.req.valid('json'));
    return c.json(result);
  })
  .post('/marketing-checkout', validate('json', MarketingCheckoutSchema), async (c) => {
    const result = await createMarketingCheckout(c.var.deps, c.var.user, c.req.valid('json'));
    return c.json(result, 201);
  })
  .post('/checkout', validate('json', PromotionCheckoutSchema), async (c) => {
    const result = await createPromotionCheckout(c.var.deps, c.var.user, c.req.valid('json'));
    return c.json(result, 201);
  });
