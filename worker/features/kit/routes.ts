import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { validate } from '../../lib/validate';
import { KIT_ITEMS, KitItemParamSchema, KitListQuerySchema, type KitFile, type KitUnitKind } from './contract';
import { renderKitItem } from './render';
import { kitBase, kitData, kitNight, listKitUnits } from './service';
import { storedOrRendered } from './store';

type C = Context<AppEnv>;

/**
 * One kit item as a download (owner of the business, or superadmin; 401 / 403 / 404). From R2 when the same content
 * was rendered before (`x-kit-source: store|render`), else rendered in the Worker and stored; in development and test
 * `x-kit-text` carries the texts a PNG render drew.
 */
async function download(c: C, unit: KitUnitKind, id: string, file: KitFile): Promise<Response> {
  const item = KIT_ITEMS[file];
  const base = await kitBase(c.var.deps, c.var.user, unit, id);
  const night = item.results ? await kitNight(c.var.deps, unit, id) : undefined;
  const data = kitData(c.var.config.appUrl, base, item.src, night);
  const user = c.var.user!;
  const stored = await storedOrRendered(
    {
      bucket: c.env.CARDS,
      db: c.var.db,
      now: c.var.clock.now(),
      userId: user.id,
      defer: (work) => {
        try {
          c.executionCtx.waitUntil(work);
        } catch {
          void work;
        }
      },
    },
    { unit, id, file },
    data,
    item.contentType,
    () => renderKitItem(item.kind, data),
  );
  const headers: Record<string, string> = {
    'content-type': item.contentType,
    'content-disposition': `attachment; filename="quizkvall-${file}"`,
    'cache-control': 'private, no-store',
    'x-kit-source': stored.source,
  };
  // As x-og-text of the share cards: in development and test, the texts a PNG render drew (the tests read them).
  if (c.var.config.isDev && stored.texts) headers['x-kit-text'] = encodeURIComponent(JSON.stringify(stored.texts));
  return c.body(stored.bytes as unknown as ArrayBuffer, 200, headers);
}

/** Mounted at /api/owner/kit: the owner kit (issue 48.7), posters, table tents and Instagram images per series or quiz. */
export const kitRoutes = new Hono<AppEnv>()
  .get('/', validate('query', KitListQuerySchema), async (c) => c.json(await listKitUnits(c.var.deps, c.var.user, c.req.valid('query').venueId)))
  .get('/series/:id/:file', validate('param', KitItemParamSchema), (c) => {
    const p = c.req.valid('param');
    return download(c, 'series', p.id, p.file);
  })
  .get('/quiz/:id/:file', validate('param', KitItemParamSchema), (c) => {
    const p = c.req.valid('param');
    return download(c, 'quiz', p.id, p.file);
  });
