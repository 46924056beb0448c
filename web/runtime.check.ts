/**
 * Never imported: proves that the browser's project (web/tsconfig.json) has no Worker globals; `npm run typecheck`
 * fails on an unused @ts-expect-error.
 */
// @ts-expect-error HTMLRewriter is a Worker global, not a browser one
export const noRewriter = HTMLRewriter;
// @ts-expect-error D1Database is a Worker binding type
export type NoD1 = D1Database;
