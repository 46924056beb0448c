import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { LISTING_SERIES_TRIGGERS_SQL } from '../../scripts/listing-series-triggers.mjs';

describe('migration 0005 (listing_series triggers)', () => {
  it('is exactly the output of its template, so the repeated refresh blocks cannot drift apart', () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0005_listing_series_triggers.sql'), 'utf8');
    expect(migration).toBe(LISTING_SERIES_TRIGGERS_SQL);
  });
});
