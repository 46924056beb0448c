/** Runs before every story file (vitest.e2e.config.ts setupFiles): Node's fetch retries a reset connection (./network.ts). */
import { retryingFetch } from './network';

globalThis.fetch = retryingFetch(globalThis.fetch);
