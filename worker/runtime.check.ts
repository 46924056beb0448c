/**
 * Never imported: proves that the Worker's project (tsconfig.worker.json) has no DOM. If `window` or `document`
 * became defined here, the @ts-expect-error lines would be unused and `npm run typecheck` would fail.
 */
// @ts-expect-error window is a browser global, not a Worker one
export const noWindow = window;
// @ts-expect-error document is a browser global, not a Worker one
export const noDocument = document;
