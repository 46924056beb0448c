/**
 * CSV import of gathered venues (issue 7): one row = one unclaimed business with one place and one
 * open-ended weekly/biweekly series. Imports only zod and the forms' own field contracts: the text
 * columns are the place form's and the quiz form's fields (lib/zod-text's one-line rule: no control
 * characters, line breaks, NEL or U+2028/2029 — issue 26.7), the coordinates the place form's rules.
 * Messages are Swedish and name the column.
 */
import * as z from 'zod';
import { findWeekday } from '../../lib/swedish';
import { DEFAULT_QUIZ_LANGUAGE, parseQuizLanguage } from '../../lib/quiz-filters';
import { CustomThemeSchema, QuizmasterSchema } from '../quizzes/contract';
import { AddressSchema, CitySchema, optionalPhone, optionalWebsite, outsideSwedenMessage, VenueNameSchema } from '../venues/contract';
import { lazySchema } from '../../lib/lazy-schema';

/**
 * Rows per file. Each row is 3 write statements; 300 rows stay under D1's 1 000 queries per Worker
 * invocation even if every statement of a batch counts.
 */
export const MAX_IMPORT_ROWS = 300;
export const MAX_IMPORT_CHARS = 1_000_000;

/** Canonical column names (the sample file's header) and accepted Swedish aliases. */
export const IMPORT_COLUMNS = {
  name: ['name', 'namn'],
  address: ['address', 'adress'],
  city: ['city', 'stad', 'ort'],
  phone: ['phone', 'telefon'],
  website: ['website', 'webbplats', 'hemsida'],
  weekday: ['weekday', 'veckodag'],
  start_time: ['start_time', 'start time', 'starttid', 'tid'],
  pattern: ['pattern', 'mönster', 'upprepning'],
  category: ['category', 'kategori'],
  theme: ['theme', 'tema'],
  quizmaster: ['quizmaster', 'quizledare'],
  price: ['price', 'pris'],
  language: ['language', 'språk', 'sprak'],
  lat: ['lat', 'latitude', 'latitud'],
  lng: ['lng', 'lon', 'longitude', 'longitud'],
} as const;
export type ImportColumn = keyof typeof IMPORT_COLUMNS;
export const REQUIRED_COLUMNS: ImportColumn[] = ['name', 'address', 'city', 'weekday'];

const PATTERNS: Record<string, 'weekly' | 'biweekly'> = {
  '': 'weekly',
  weekly: 'weekly',
  'varje vecka': 'weekly',
  veckovis: 'weekly',
  biweekly: 'biweekly',
  'varannan vecka': 'biweekly',
  varannan: 'biweekly',
};
const CATEGORIES: Record<string, 'allmänbildning' | 'tema'> = {
  '': 'allmänbildning',
  allmänbildning: 'allmänbildning',
  allmänt: 'allmänbildning',
  tema: 'tema',
};

const optionalNumber = (label: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return null;
      const n = Number(v.replace(',', '.'));
      if (!Number.isFinite(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `Ange ett tal mellan ${min} och ${max}` });
        return z.NEVER;
      }
      return n;
    })
    .describe(label);

export const ImportRowSchema = lazySchema(() =>
  z
    .object({
      name: VenueNameSchema,
      address: AddressSchema,
      city: CitySchema,
      phone: optionalPhone(),
      website: optionalWebsite,
      weekday: z
        .string()
        .trim()
        .transform((v, ctx) => {
          const w = findWeekday(v);
          if (!w) {
            ctx.addIssue({ code: 'custom', message: 'Ange en veckodag (måndag–söndag)' });
            return z.NEVER;
          }
          return { iso: w.iso, name: w.name };
        })
        .describe('weekday'),
      start_time: z
        .string()
        .trim()
        .transform((v, ctx) => {
          if (v === '') return null;
          const m = /^([01]?\d|2[0-3])[:.]([0-5]\d)$/.exec(v);
          if (!m) {
            ctx.addIssue({ code: 'custom', message: 'Ange tiden som HH:MM, t.ex. 19:00' });
            return z.NEVER;
          }
          return `${m[1]!.padStart(2, '0')}:${m[2]}:00`;
        })
        .describe('start_time'),
      pattern: z
        .string()
        .trim()
        .transform((v, ctx) => {
          const p = PATTERNS[v.toLowerCase()];
          if (!p) {
            ctx.addIssue({ code: 'custom', message: 'Ange weekly (varje vecka) eller biweekly (varannan vecka)' });
            return z.NEVER;
          }
          return p;
        })
        .describe('pattern'),
      category: z
        .string()
        .trim()
        .transform((v, ctx) => {
          // Empty = not given (issue 44.3: no badge, the owner is asked), as the catalogue export writes it.
          if (v === '') return null;
          const c = CATEGORIES[v.toLowerCase()];
          if (!c) {
            ctx.addIssue({ code: 'custom', message: 'Ange allmänbildning eller tema' });
            return z.NEVER;
          }
          return c;
        })
        .describe('category'),
      theme: CustomThemeSchema,
      quizmaster: QuizmasterSchema,
      price: z
        .string()
        .trim()
        .transform((v, ctx) => {
          const s = v.toLowerCase().replace(/\s*kr$/, '');
          if (s === '') return null;
          if (s === 'gratis') return 0;
          if (!/^\d{1,5}$/.test(s)) {
            ctx.addIssue({ code: 'custom', message: 'Ange priset i hela kronor, t.ex. 50 (eller gratis)' });
            return z.NEVER;
          }
          return Number(s);
        })
        .describe('price'),
      // Issue 31.3: the quiz's language; empty or absent (a file without the column) = svenska.
      language: z
        .string()
        .trim()
        .optional()
        .transform((v, ctx) => {
          if (!v) return DEFAULT_QUIZ_LANGUAGE;
          const l = parseQuizLanguage(v);
          if (!l) {
            ctx.addIssue({ code: 'custom', message: 'Ange språket som svenska, engelska eller båda (sv, en, both)' });
            return z.NEVER;
          }
          return l;
        })
        .describe('language'),
      lat: optionalNumber('lat', -90, 90),
      lng: optionalNumber('lng', -180, 180),
    })
    .superRefine((row, ctx) => {
      if (row.category === 'tema' && !row.theme) ctx.addIssue({ code: 'custom', path: ['theme'], message: 'Ange ett tema när kategorin är tema' });
      // Coordinates: both or neither, inside Sweden (the same rules as the place form).
      if ((row.lat === null) !== (row.lng === null)) {
        ctx.addIssue({ code: 'custom', path: [row.lat === null ? 'lat' : 'lng'], message: 'Ange både lat och lng, eller ingen av dem' });
      }
      const latMsg = row.lat !== null ? outsideSwedenMessage('Latitud', 'lat', row.lat) : null;
      if (latMsg) ctx.addIssue({ code: 'custom', path: ['lat'], message: latMsg });
      const lngMsg = row.lng !== null ? outsideSwedenMessage('Longitud', 'lng', row.lng) : null;
      if (lngMsg) ctx.addIssue({ code: 'custom', path: ['lng'], message: lngMsg });
    }),
);
export type ImportRow = z.output<typeof ImportRowSchema>;

export const ImportRequestSchema = lazySchema(() =>
  z.object({
    csv: z
      .string({ error: 'Välj en CSV-fil' })
      .min(1, 'Filen är tom')
      .max(MAX_IMPORT_CHARS, `Filen får vara högst ${MAX_IMPORT_CHARS / 1000} kB`)
      .describe('CSV-fil'),
  }),
);

export interface ImportPreviewRow {
  /** Line number in the file (header = 1). */
  line: number;
  name: string;
  address: string;
  city: string;
  weekday: string;
  startTime: string;
  pattern: string;
  category: string;
  /** "column: message", empty when the row is valid. */
  errors: string[];
  /** 'file' = same name and address earlier in the file; 'db' = already in the catalogue. */
  duplicate: 'file' | 'db' | null;
}
export interface ImportPreview {
  rows: ImportPreviewRow[];
  /** Errors of the file as a whole (missing columns, too many rows). */
  fileErrors: string[];
  summary: { total: number; valid: number; invalid: number; duplicates: number; toImport: number };
  canImport: boolean;
}
export interface ImportResult {
  created: number;
  skippedDuplicates: number;
  quizzesCreated: number;
}
