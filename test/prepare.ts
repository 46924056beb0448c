/**
 * `npm test`'s first step beside lint: builds the migrated, empty database the backup drill and every e2e app copy
 * (test/migrated-db.ts) when this clone has none yet, so the unit tier's drill does not wait ~20 s for it (on a
 * clean clone, as on CI). Does nothing when the template for these migrations exists.
 */
import { join } from 'node:path';
import { migratedDatabase } from './migrated-db';

const started = performance.now();
const state = migratedDatabase(join(import.meta.dirname, '..'));
console.log(`Migrerad testdatabas klar (${Math.round(performance.now() - started)} ms): ${state}`);
