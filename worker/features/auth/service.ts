/**
 * Sign-in rules (spec 01 §4–§8), one file per job: login.ts (password, TOTP step, device cookie, session),
 * registration.ts (registration, resend, e-mail verification), reset.ts (password reset), google.ts (Google
 * sign-in), with account.ts (verification and roles) and tokens.ts (mailed single-use links) beneath them.
 * Services take db, clock time, ports and config; they never see Hono. Other features and the jobs may import
 * only this file (test/unit/boundaries.test.ts): it re-exports what they use.
 */
export type { AuthDeps } from './account';
export { cleanUpEmailTokens, issueMailedToken, readEmailToken, redeemEmailToken } from './tokens';
