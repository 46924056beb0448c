/** Accounts and sign-in: users, credentials, sessions, mail tokens, TOTP, rate limits, roles and profiles. */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './common';

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  /** Always stored lower-cased and trimmed. */
  email: text('email').notNull().unique(),
  /** ISO instant of e-mail verification; null until verified (unverified users cannot log in). */
  emailVerifiedAt: text('email_verified_at'),
  ...timestamps,
});
export type UserRow = typeof users.$inferSelect;

export const passwordCredentials = sqliteTable('password_credentials', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` (worker/lib/password.ts). */
  hash: text('hash').notNull(),
  ...timestamps,
});
export type PasswordCredentialRow = typeof passwordCredentials.$inferSelect;

export const oauthAccounts = sqliteTable(
  'oauth_accounts',
  {
    provider: text('provider', { enum: ['google'] }).notNull(),
    providerUserId: text('provider_user_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index('oauth_accounts_user_idx').on(t.userId)],
);
export type OauthAccountRow = typeof oauthAccounts.$inferSelect;

export const sessions = sqliteTable(
  'sessions',
  {
    /** Public half of the `id.secret` cookie token. */
    id: text('id').primaryKey(),
    /** SHA-256 (hex) of the secret half; the secret itself is never stored. */
    secretHash: text('secret_hash').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Epoch ms; sliding (extended on use, see worker/lib/session.ts). */
    expiresAt: integer('expires_at').notNull(),
    /** 1 while a TOTP-enrolled user has given the password but not yet the code. */
    mfaPending: integer('mfa_pending', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);
export type SessionRow = typeof sessions.$inferSelect;

export const EMAIL_TOKEN_PURPOSES = ['verify_email', 'reset_password', 'change_email'] as const;
export const emailTokens = sqliteTable(
  'email_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: EMAIL_TOKEN_PURPOSES }).notNull(),
    /** SHA-256 (hex) of the token sent by mail; single use (used_at). */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    /** JSON: e.g. { takeoverVenue } for verify_email, { newEmail } for change_email. */
    payload: text('payload'),
    ...timestamps,
  },
  (t) => [index('email_tokens_user_idx').on(t.userId), index('email_tokens_expires_idx').on(t.expiresAt)],
);
export type EmailTokenRow = typeof emailTokens.$inferSelect;

export const totpFactors = sqliteTable(
  'totp_factors',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    friendlyName: text('friendly_name').notNull().default('Autentiseringsapp'),
    /** Base64 TOTP key. */
    secret: text('secret').notNull(),
    /** Null while enrolment is unconfirmed; a factor counts only once verified. */
    verifiedAt: text('verified_at'),
    /** Last accepted time step, so one code cannot be replayed. */
    lastUsedStep: integer('last_used_step'),
    ...timestamps,
  },
  (t) => [uniqueIndex('totp_factors_user_idx').on(t.userId)],
);
export type TotpFactorRow = typeof totpFactors.$inferSelect;

/** Attempt counters for rate limits (spec 01 §3 "Registration rate limiter"), keyed e.g. `register:<email>`. */
export const rateLimits = sqliteTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowStart: integer('window_start').notNull(),
    lastAttempt: integer('last_attempt').notNull(),
  },
  (t) => [index('rate_limits_last_attempt_idx').on(t.lastAttempt)],
);
export type RateLimitRow = typeof rateLimits.$inferSelect;

export const ROLES = ['admin', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];
export const userRoles = sqliteTable(
  'user_roles',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ROLES }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);
export type UserRoleRow = typeof userRoles.$inferSelect;

export const profiles = sqliteTable('profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  firstName: text('first_name'),
  lastName: text('last_name'),
  phone: text('phone'),
  ...timestamps,
});
export type ProfileRow = typeof profiles.$inferSelect;
