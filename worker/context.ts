import type { Db } from './db/client';
import type { Config } from './env';
import type { Clock } from './lib/clock';
import type { Actor } from './lib/authz';
import type { SessionRow } from './db/schema';
import type { Deps } from './ports/deps';

/** Hono generics for the whole app: the one Env plus the per-request variables. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    /** Drizzle database for this request. */
    db: Db;
    /** Parsed configuration (worker/env.ts). */
    config: Config;
    /** Europe/Stockholm clock; pinned by CLOCK_NOW (or the x-clock-now header when APP_ENV=test). */
    clock: Clock;
    /** This request's deps: db, config, clock and the ports (mailer, payments, Google), made once (ports/deps.ts). */
    deps: Deps;
    /** Signed-in user, or null for a visitor (also null while a TOTP code is still pending). */
    user: Actor;
    /** The session row behind `user` (or the pending-MFA session), or null. */
    session: SessionRow | null;
    /** Set by hono/request-id; logged with every unexpected error. */
    requestId: string;
  };
}
