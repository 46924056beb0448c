import { app } from './app';
import { runNightly } from './jobs/nightly';

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runNightly(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
