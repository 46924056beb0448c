import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { createPayments } from '../../ports/payments';
import { getPricing } from './pricing';

export const promotionRoutes = new Hono<AppEnv>().get('/pricing', async (c) => {
  const pricing = await getPricing(createPayments(c.var.config), c.var.config.stripe, c.var.clock.now());
  return c.json(pricing);
});
