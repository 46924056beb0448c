/**
 * The owner kit (issue 48.7): print and social material per series or single quiz, downloaded from the owner
 * dashboard. Shared by the Worker and the dashboard (web/components/kit): zod and plain data only.
 */
import * as z from 'zod';
import type { VisitSource } from '../../lib/analytics-metrics';
import { lazySchema } from '../../lib/lazy-schema';
import { idField } from '../../lib/zod-text';

/**
 * What the kit makes, by file name in the download path. `src` is the venue link's source tag. `results`: offered
 * only once the series (or single quiz) has a posted night; without one the download answers 404.
 */
export const KIT_ITEMS = {
  'affisch.pdf': { kind: 'poster', label: 'Affisch A4 (PDF)', src: 'affisch', contentType: 'application/pdf', results: false },
  'bordsskylt.pdf': { kind: 'tent', label: 'Bordsskylt A6 (PDF)', src: 'bordsskylt', contentType: 'application/pdf', results: false },
  'instagram-inlagg.png': { kind: 'post', label: 'Instagram-inlägg 1080 × 1080 (PNG)', src: 'instagram', contentType: 'image/png', results: false },
  'instagram-story.png': { kind: 'story', label: 'Instagram-story 1080 × 1920 (PNG)', src: 'instagram', contentType: 'image/png', results: false },
  'topp3-inlagg.png': {
    kind: 'top3-post',
    label: 'Senaste kvällens topp 3, inlägg 1080 × 1080 (PNG)',
    src: 'instagram',
    contentType: 'image/png',
    results: true,
  },
  'topp3-story.png': {
    kind: 'top3-story',
    label: 'Senaste kvällens topp 3, story 1080 × 1920 (PNG)',
    src: 'instagram',
    contentType: 'image/png',
    results: true,
  },
} as const;
export type KitFile = keyof typeof KIT_ITEMS;
export type KitItemKind = (typeof KIT_ITEMS)[KitFile]['kind'];
export const KIT_FILES = Object.keys(KIT_ITEMS) as KitFile[];

/** The source tags of the kit's links, counted as their own source in the owner's analytics (lib/analytics-metrics.ts). */
export type KitSource = VisitSource;

/** A series (every occurrence shares `recurrence_id`) or a single quiz. */
export type KitUnitKind = 'series' | 'quiz';

/** Download path of one kit item. */
export function kitPath(unit: KitUnitKind, id: string, file: KitFile): string {
  return `/api/owner/kit/${unit}/${encodeURIComponent(id)}/${file}`;
}

const Id = lazySchema(idField);

/** GET /api/owner/kit?venueId= */
export const KitListQuerySchema = lazySchema(() => z.object({ venueId: Id.describe('Verksamhet') }));

/** Params of GET /api/owner/kit/{series|quiz}/:id/:file */
export const KitItemParamSchema = lazySchema(() =>
  z.object({
    id: Id.describe('Id'),
    file: z.enum(KIT_FILES as [KitFile, ...KitFile[]], { error: 'Okänd fil' }).describe('Fil'),
  }),
);

export interface KitUnit {
  unit: KitUnitKind;
  id: string;
  /** "Varje tisdag 19:00 · Puben Söder" */
  label: string;
  /** The next date, YYYY-MM-DD. */
  next: string;
  /** Has a posted night: the `results` items are offered. */
  results: boolean;
}

/** The files offered for a unit: the results items only once it has results. */
export const kitFilesFor = (unit: Pick<KitUnit, 'results'>): KitFile[] => KIT_FILES.filter((f) => !KIT_ITEMS[f].results || unit.results);
export interface KitListResponse {
  units: KitUnit[];
}
