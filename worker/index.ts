import { app } from './app';
import { runNightly } from './jobs/nightly';
import { invalidateDataVersion } from './lib/data-version';

/** The durable bulk import (wrangler.toml [[workflows]] IMPORT_WORKFLOW). */
export { ImportWorkflow } from './features/admin/import-workflow';

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    // The nightly tasks may change public data: forget the memoized data version once they are done.
    ctx.waitUntil(runNightly(env, new Date(controller.scheduledTime)).finally(invalidateDataVersion));
  },
} satisfies ExportedHandler<Env>;
