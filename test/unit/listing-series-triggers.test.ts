import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// biome-ignore format: @ts-expect-error must sit on the line just before the untyped module's path
// @ts-expect-error plain ESM script without types
import { LISTING_DATES_SQL, LISTING_RANK_SQL, LISTING_SEARCH_SQL, LISTING_SERIES_FILTERS_SQL, LISTING_SERIES_LANGUAGE_SQL, LISTING_SERIES_NEAR_SQL, LISTING_SERIES_TRIGGERS_SQL, LISTING_SERIES_WORDS_SQL, LISTING_UNKNOWN_SQL } from '../../scripts/listing-series-triggers.mjs';

describe('migrations printed by scripts/listing-series-triggers.mjs', () => {
  it('0005 (triggers) is exactly the output of its template, so the repeated refresh blocks cannot drift apart', () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0005_listing_series_triggers.sql'), 'utf8');
    expect(migration).toBe(LISTING_SERIES_TRIGGERS_SQL);
  });
  it('0007 (word-prefix index) is exactly the output of its template', () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0007_listing_series_words.sql'), 'utf8');
    expect(migration).toBe(LISTING_SERIES_WORDS_SQL);
  });
  it("0009 (near mode: towns, lat/lng, triggers recreated) is exactly the output of its template and today's gazetteer", () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0009_listing_near.sql'), 'utf8');
    expect(migration).toBe(LISTING_SERIES_NEAR_SQL);
  });
  it('0015 (quiz filters: columns and widened indexes by drizzle-kit, then the triggers and backfill) ends with exactly the template output', () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0015_quiz_filters.sql'), 'utf8');
    const [generated, printed] = migration.split('--> statement-breakpoint\n-- Printed by');
    expect(generated).toContain('ALTER TABLE `listing_series` ADD `topic` text;');
    expect(`-- Printed by${printed}`).toBe(LISTING_SERIES_FILTERS_SQL);
  });
  it('0018 (the ranked listing: columns, state, counts and indexes by drizzle-kit, then the triggers and backfill) ends with exactly the template output', () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0018_listing_rank.sql'), 'utf8');
    const [generated, printed] = migration.split('--> statement-breakpoint\n-- Printed by');
    expect(generated).toContain('CREATE INDEX `listing_series_rank_idx`');
    expect(`-- Printed by${printed}`).toBe(LISTING_RANK_SQL);
  });
  it('0019 (date mode in ranking order: listing_dates, the refresh trigger recreated with its sync) is exactly the template output', () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0019_listing_dates.sql'), 'utf8');
    expect(migration).toBe(LISTING_DATES_SQL);
  });
  it('0020 (free text in ranking order: the rank-keyed search indexes and their triggers) is exactly the template output', () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0020_listing_search.sql'), 'utf8');
    expect(migration).toBe(LISTING_SEARCH_SQL);
  });
  it('0027 (quiz language: columns and widened indexes by drizzle-kit, then the CHECK triggers, the triggers with lang, the card with the language and the backfill) ends with exactly the template output', () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0027_quiz_language.sql'), 'utf8');
    const [generated, printed] = migration.split('--> statement-breakpoint\n-- Printed by');
    expect(generated).toContain("ALTER TABLE `quizzes` ADD `language` text DEFAULT 'sv' NOT NULL;");
    expect(`-- Printed by${printed}`).toBe(LISTING_SERIES_LANGUAGE_SQL);
  });
  it('0030 (unknown facts: the data by provenance, the triggers with the unknown price, the backfill) is exactly the template output', () => {
    const migration = readFileSync(join(import.meta.dirname, '..', '..', 'migrations', '0031_unknown_facts.sql'), 'utf8');
    expect(migration).toBe(LISTING_UNKNOWN_SQL);
    expect(migration).toContain('coalesce(q.price, -1)');
  });
});
