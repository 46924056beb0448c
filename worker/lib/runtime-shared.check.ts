/**
 * Never imported: proves that the shared project (tsconfig.shared.json: modules both web/ and worker/ import)
 * has neither the DOM nor the Worker's globals; `npm run typecheck` fails on an unused @ts-expect-error.
 */
// @ts-expect-error window is a browser global
export const noWindow = window;
// @ts-expect-error HTMLRewriter is a Worker global
export const noRewriter = HTMLRewriter;
