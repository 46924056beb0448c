/**
 * Issue 28.5 / 28.7: a rule or text has one home. These scans fail when a second copy comes back.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const code = (file: string) =>
  read(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
/** The schema: its index (worker/db/schema.ts) and every aggregate's file under worker/db/schema/. */
const schemaCode = () => ['worker/db/schema.ts', ...sources('worker/db/schema')].map(code).join('\n');
const filesContaining = (dirs: string[], re: RegExp) => dirs.flatMap(sources).filter((f) => re.test(code(f)));

/** Every module the given file reaches through relative imports (type-only imports excluded: erased). */
function closure(entry: string): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of code(file).matchAll(/\b(?:import|export)\s+(?!type\b)(?:[\w*${}\s,]+?\s+from\s+)?['"](\.[^'"]+)['"]/g)) {
      const base = join(dirname(file), m[1]!);
      const hit = [base, `${base}.ts`, `${base}.tsx`].find((c) => {
        try {
          return statSync(join(ROOT, c)).isFile();
        } catch {
          return false;
        }
      });
      if (hit) walk(relative(ROOT, join(ROOT, hit)));
    }
  };
  walk(entry);
  return [...seen];
}

describe('promotion prices and ranking (28.5)', () => {
  it('one price loader: only web/lib/pricing.ts calls /api/promotion/pricing', () => {
    expect(filesContaining(['web'], /\/api\/promotion\/pricing/)).toEqual(['web/lib/pricing.ts']);
  });

  it('the public marketing dialog reaches no zod', () => {
    const withZod = closure('web/components/listing/MarketingDialog.tsx').filter((f) => /from\s+['"]zod['"]/.test(code(f)));
    expect(withZod).toEqual([]);
  });

  it('the ranking explanation is written once (promotion/tiers.ts) and says the daily shuffle', () => {
    expect(filesContaining(['web', 'worker'], /slumpas om varje dag|tidsordning/)).toEqual(['worker/features/promotion/tiers.ts']);
    for (const page of ['web/pages/AnnonseraPage.tsx', 'web/components/venues/PromotionInfo.tsx']) expect(read(page)).toContain('RANKING_STEPS');
  });
});

/**
 * Issue 45.5: a rule's one home, found by its pattern rather than by a list of past findings. Each rule names
 * what a copy would look like and where the rule lives; its `copy` is a new copy written the way the old ones
 * were, which the pattern must catch. `known` holds copies found when the rule was written (each with its
 * reason), to be moved home by their owners: the test fails when one is gone, so the list only shrinks.
 */
interface HomeRule {
  rule: string;
  dirs: string[];
  pattern: RegExp;
  homes: string[];
  copy: string;
  known?: Record<string, string>;
}
const HOME_RULES: HomeRule[] = [
  {
    rule: 'weekday names are spelled only in worker/lib/swedish.ts (28.7)',
    dirs: ['web', 'worker'],
    pattern: /['"`](måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag)['"`]/,
    homes: ['worker/lib/swedish.ts'],
    copy: "const fallback = 'onsdag';",
  },
  {
    rule: 'a number of hours, days, weeks or months in a text comes from its constant (28.7)',
    dirs: ['web', 'worker'],
    // ('en'/'ett' are left out: "på en dag" is not a count.)
    pattern:
      /[\s>'"`(](\d+|två|tre|fyra|fem|sex|sju|åtta|nio|tio|elva|tolv|femton|tjugo|trettio|sextio|nittio) (timme|timmar|dygn|dag|dagar|vecka|veckor|månad|månader)\b/,
    homes: [],
    copy: 'const text = `Länken gäller i 48 timmar.`;',
    known: {
      'worker/features/analytics/contract.ts': "'7, 30 eller 90 dagar': the period enum's own values, spelled in its error",
      'worker/features/promotion/contract.ts': "'1, 2 eller 4 veckor': WEEKS spelled in its error",
    },
  },
  {
    rule: 'what a paid tier gives is described once: TIER_PLACEMENT and slotCapText in promotion/tiers.ts (44.1)',
    dirs: ['web', 'worker'],
    // The copies found in issue 44: "Stort kort högst upp på startsidan, 1 per stad och dag", "Visas bland de tre
    // första platserna", "Hela bredden högst upp"; /annonsera's "Visas först i listan" is the home's own sentence.
    pattern: /\d+ per stad och dag|[Ss]tort kort|högst upp|hela bredden|[Vv]isas först i|tre första|de första platserna/,
    homes: ['worker/features/promotion/tiers.ts'],
    copy: "const text = t === 'premium' ? 'Stort kort högst upp på startsidan, 1 per stad och dag.' : 'Bland de första platserna.';",
  },
  {
    rule: 'the claim guard: only worker/db/batch.ts aborts a batch on changes() or reads a constraint error for it (45.5)',
    dirs: ['web', 'worker'],
    pattern: /changes\(\)\s*=\s*0|NOT NULL constraint failed/,
    homes: ['worker/db/batch.ts'],
    copy: 'export const ALREADY = /NOT NULL constraint failed: tips\\.id/i;\nconst guard = sql`INSERT INTO t (id) SELECT NULL WHERE changes() = 0`;',
  },
  {
    rule: 'a claim and its mail: only withNotices (worker/ports/mailer.ts) batches an outbox statement and decides its delivery (45.5)',
    dirs: ['worker/features', 'worker/jobs'],
    pattern: /\bneedsDelivery\(|\.statement\b/,
    homes: [],
    copy: 'const [, written] = await db.batch([insert, mail.statement]);',
  },
];

describe('one home per rule, found by pattern (45.5)', () => {
  for (const r of HOME_RULES) {
    it(r.rule, () => {
      const found = filesContaining(r.dirs, r.pattern);
      expect(found.filter((f) => !(r.known && f in r.known))).toEqual(r.homes);
      expect(Object.keys(r.known ?? {}).filter((f) => !found.includes(f))).toEqual([]);
      // A new copy, written as the old ones were, is caught (comments stripped as for the sources).
      const copy = r.copy.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
      expect(r.pattern.test(copy)).toBe(true);
    });
  }
});

describe('numbers in texts come from their constants (28.7)', () => {
  it('the series horizon and the follow limit have one home each', () => {
    expect(filesContaining(['worker'], /=\s*180\s*;|=\s*6 \* 30\s*;|_MONTHS\s*=\s*6\s*;/)).toEqual(['worker/lib/recurrence.ts']);
    expect(schemaCode()).not.toMatch(/MAX_FOLLOWS/);
  });
});

describe('the password rule (45.5): worker/lib/password-rules.ts', () => {
  it('no other module states a password length in a text or declares its own minimum', () => {
    // Any "minst N tecken" / "Minst N tecken" text, and any *PASSWORD_MIN(*) = N declaration: the rule's one home.
    expect(filesContaining(['web', 'worker'], /[Mm]inst \d+ tecken|PASSWORD_MIN\w*\s*=\s*\d/)).toEqual(['worker/lib/password-rules.ts']);
  });
});

describe('plurals (44.9): countText in worker/lib/swedish.ts', () => {
  it('no module picks a counted noun\'s number inline ("1 ställen" came from such copies)', () => {
    // `${n} ${n === 1 ? …` and `n === 1 ? '1 …' : `${n} …``: a count with its noun, chosen by hand.
    expect(filesContaining(['web', 'worker'], /\$\{([\w.]+)\} \$\{\1 === 1 \?|\{([\w.]+)\} \{\2 === 1 \?|=== 1 \? ['"`]1 /)).toEqual(['worker/lib/swedish.ts']);
  });
});

describe('shared helpers (28.7)', () => {
  it('one directions URL (worker/lib/geo.ts) and the beacon spells no metric list of its own', () => {
    expect(filesContaining(['web', 'worker'], /google\.com\/maps\/dir/)).toEqual(['worker/lib/geo.ts']);
    expect(code('web/components/analytics/beacon.ts')).not.toMatch(/'feed_subscribe'|=\s*50;|10_000;/);
  });
});

describe('the client key (28.7)', () => {
  it('only clientKeyOf (worker/lib/rate-limit.ts) reads cf-connecting-ip', () => {
    expect(filesContaining(['worker'], /cf-connecting-ip['"]\)/)).toEqual(['worker/lib/rate-limit.ts']);
  });
});

describe('icons (suite time)', () => {
  it("no module imports the lucide-react root (it re-exports every icon); web/components/ui/icons.ts imports each one's own module", () => {
    expect(filesContaining(['web', 'worker'], /from\s+['"]lucide-react['"]/)).toEqual([]);
    expect(filesContaining(['web', 'worker'], /from\s+['"]lucide-react\/icons\//)).toEqual(['web/components/ui/icons.ts']);
  });
});

describe('signed-link pages (28.7): one guard, worker/lib/link-page.ts', () => {
  it('no feature catches a link refusal itself', () => {
    expect(filesContaining(['worker'], /linkErrorPage\(|function guarded\(/)).toEqual(['worker/lib/link-page.ts']);
  });
});

describe("D1's parameter cap (28.7): one chunking helper, worker/lib/chunks.ts", () => {
  it('no module slices its own chunks in a loop', () => {
    expect(filesContaining(['worker'], /i \+= (\w+)\)[\s\S]{0,300}?\.slice\(\s*i\s*,\s*i \+ \1\s*\)/)).toEqual(['worker/lib/chunks.ts']);
  });
});

describe('the batch statement type (28.7): BatchStatement in worker/db/batch.ts', () => {
  it('no module derives its own statement type or casts a statement into a batch', () => {
    expect(filesContaining(['worker'], /BatchItem<|Parameters<\s*Db\[['"]batch['"]\]\s*>|as unknown as (Stmt|Statement)\b/)).toEqual(['worker/db/batch.ts']);
  });
});

describe('ListingContext (28.7): one type and one builder, worker/lib/listing-context.ts', () => {
  it('no module declares the type or builds the context by hand', () => {
    expect(filesContaining(['worker'], /interface ListingContext\b/)).toEqual(['worker/lib/listing-context.ts']);
    expect(filesContaining(['worker'], /rewind:\s*[\w.]*isTest/)).toEqual(['worker/lib/listing-context.ts']);
  });
});

describe('the saved-search label (28.7): worker/lib/search-label.ts, shared by web and server', () => {
  it('no other module names a search part by part', () => {
    expect(filesContaining(['web', 'worker'], /`”\$\{/)).toEqual(['worker/lib/search-label.ts']);
    // The URL's filter strings become filters in one place (quizFiltersFromUrl), which the label builds on.
    expect(filesContaining(['web', 'worker'], /isPriceFilter\([\w.]+\.price\)/)).toEqual(['worker/lib/quiz-filters.ts']);
  });
  it('the follow button and the empty state both build on it', () => {
    for (const f of ['web/components/follows/label.ts', 'web/components/listing/urls.ts']) expect(code(f)).toMatch(/worker\/lib\/search-label/);
  });
});

describe('time-zone parts (28.7): one formatter, worker/lib/clock.ts', () => {
  it('no other Worker module reads wall-clock parts of a zone', () => {
    expect(filesContaining(['worker'], /formatToParts|hourCycle/)).toEqual(['worker/lib/clock.ts']);
  });
});

describe('prices and counts in texts (28.7)', () => {
  it("prices are written by the promotion tiers' helpers (priceText, weeklyPriceText, optionPriceText)", () => {
    // tiers.ts writes them through weeksText (countText, the plural rule below), so no module spells a price by hand.
    expect(filesContaining(['web', 'worker'], /kr\/vecka|\{\s*[\w.[\]]*(priceSek|weeklyPriceSek|PRICE_SEK\[?[\w.]*\]?)\s*\}\s*kr\b|\}\s*kr\)/)).toEqual([]);
    expect(code('worker/features/promotion/tiers.ts')).toMatch(/weeksText\(/);
  });
  it('the volume-discount threshold comes from its constant', () => {
    expect(filesContaining(['web', 'worker'], /\/3 misslyckades/)).toEqual([]);
  });
});

describe('business limits live beside their rule, not in worker/db/schema/ (28.6)', () => {
  it('the slot limit is MAX_SLOTS_PER_DAY (promotion/tiers.ts); the schema only enforces it, with the same numbers', () => {
    const schema = schemaCode();
    expect(schema).not.toMatch(/MAX_SLOTS\b/);
    const tiers = code('worker/features/promotion/tiers.ts');
    const limits = /MAX_SLOTS_PER_DAY = \{ recommended: (\d+), premium: (\d+) \}/.exec(tiers);
    expect(limits).not.toBeNull();
    expect(schema).toContain(`(tier = 'premium' AND slot_no = ${limits![2]}) OR (tier = 'recommended' AND slot_no BETWEEN 1 AND ${limits![1]})`);
  });
});

describe('layering (28.6)', () => {
  const imports = (file: string) => [...code(file).matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  it('worker/lib imports no feature', () => {
    expect(sources('worker/lib').filter((f) => imports(f).some((s) => s.includes('features/')))).toEqual([]);
  });
  // The two server renderers: the public pages (their lazy module public-app.tsx), and the pages behind mail links in
  // the same frame (issue 44.7).
  it('the Worker imports web/ only in the renderers of the public pages and the link pages', () => {
    expect(sources('worker').filter((f) => imports(f).some((s) => /(^|\/)web\//.test(s)))).toEqual([
      'worker/features/pages/public-app.tsx',
      'worker/lib/link-page.ts',
    ]);
  });
  it('holidays has its own contract: only holidays/contract.ts builds on the series form (quizzes/contract.ts)', () => {
    expect(sources('worker/features/holidays').filter((f) => imports(f).includes('../quizzes/contract'))).toEqual(['worker/features/holidays/contract.ts']);
  });
});

describe('the queue producer is a port (28.6): worker/ports/queue.ts, Deps.mailQueue', () => {
  it('no feature or job reads the raw MAIL_QUEUE binding', () => {
    expect(filesContaining(['worker'], /env\.MAIL_QUEUE\b/)).toEqual([]);
  });
});

describe('files with one job (28.6)', () => {
  it('the listing section composes its loader, map, near-me state and error panel from their own modules', () => {
    const section = code('web/components/listing/ListingSection.tsx');
    for (const part of ['./useListingLoader', './ListingMap', './NearMeState', './ErrorPanel']) expect(section).toContain(`from '${part}'`);
    expect(section).not.toMatch(/\/api\/listing\/map|function ErrorPanel|NEAR_MESSAGES/);
  });
  it('the import job is split by job: upload and views, run, step, review, files', () => {
    expect(code('worker/features/admin/import-job.ts')).not.toMatch(
      /export (async )?function (processImportChunk|resolveReview|startImportJob|resumeImportJob)\b/,
    );
    for (const [file, fn] of [
      ['import-run.ts', 'startImportJob'],
      ['import-step.ts', 'processImportChunk'],
      ['import-review.ts', 'resolveReview'],
      ['import-files.ts', 'readChunk'],
    ])
      expect(code(`worker/features/admin/${file}`)).toMatch(new RegExp(`export async function ${fn}\\b`));
  });
  it('no service of exports, analytics, freshness, holidays or the import job reads or writes SQL text itself', () => {
    const services = [
      'exports/service.ts',
      'analytics/service.ts',
      'freshness/service.ts',
      'holidays/service.ts',
      'admin/import-job.ts',
      'admin/import-run.ts',
      'admin/import-step.ts',
      'admin/import-review.ts',
    ];
    expect(services.filter((f) => /db\s*\.\s*(select|all|get|run|insert|update|delete)\(|\bsql`/.test(code(`worker/features/${f}`)))).toEqual([]);
  });
});
