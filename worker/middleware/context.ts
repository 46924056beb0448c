import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { createDb } from '../db/client';
import { parseConfig } from '../env';
import { createClock } from '../lib/clock';
import { createMailer } from '../ports/mailer';

/** Per request: parsed config, drizzle db, Stockholm clock, mailer. */
export const contextMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const config = parseConfig(c.env);
  const db = createDb(c.env.DB);
  c.set('config', config);
  c.set('db', db);
  // Tests pin the clock per request; only honoured when APP_ENV=test.
  const headerClock = config.isTest ? c.req.header('x-clock-now') : undefined;
  c.set('clock', createClock(headerClock || config.clockNow));
  c.set('mailer', createMailer(db, { apiKey: config.mailApiKey, from: config.mailFrom }));
  await next();
});
