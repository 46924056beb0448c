/**
 * The Worker's module boundaries (ARCHITECTURE.md "Layers inside the Worker", issue 14 items 2–3):
 * (a) no import cycle under worker/; (b) a feature imports only another feature's service.ts or
 * contract.ts — never its queries, mail templates or helpers. The same holds for worker/jobs/ and the
 * rest of worker/ outside features/; only worker/app.ts, which mounts the routers, imports routes.
 * (c) A feature's queries (queries.ts, or queries/*.ts when it is split by job, issue 28.6) import nothing
 * of the feature but its contract and other queries: the reads are its bottom layer.
 *
 * The graph is read with a small regex over `import … from`, `export … from`, `import '…'` and
 * `import('…')` (type-only imports included: they couple features just the same), resolving relative
 * specifiers to files. Comments are stripped first so an example in a doc comment is not an edge.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const WORKER = join(ROOT, 'worker');

/**
 * Known violations being removed on another branch (issue 14, engineer B). Each entry is
 * `from -> to` (paths relative to the repository root). Remove an entry when its edge is gone; the test
 * also fails on an entry that no longer matches anything, so the list cannot go stale.
 */
// Must stay empty: an exception here is an import cycle or a reach into another feature's internals.
const ALLOWED_EDGES: ReadonlySet<string> = new Set<string>([]);

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listSources(path));
    else if (/\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const SPECIFIER =
  /(?:\bimport\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/g;

/** Relative specifiers of one source text (comments stripped). */
function importSpecifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  // Data files (JSON, wasm, fonts) are leaves: they import nothing, so they cannot form a cycle. So are
  // the generated lazy modules (worker/lazy/*.bundle.js): self-contained bundles that import nothing.
  return [...code.matchAll(SPECIFIER)].map((m) => m[1]!).filter((s) => s.startsWith('.') && !/\.(json|wasm|woff2?|ttf|png|css|bundle\.js)$/.test(s));
}

function resolveSpecifier(fromFile: string, spec: string, files: Set<string>): string | null {
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

type Graph = Map<string, string[]>;

/** Module graph of the given files: repository-relative path → the repository-relative files it imports. */
function buildGraph(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): { graph: Graph; unresolved: string[] } {
  const set = new Set(files);
  const graph: Graph = new Map();
  const unresolved: string[] = [];
  for (const file of files) {
    const edges = new Set<string>();
    for (const spec of importSpecifiers(read(file))) {
      const target = resolveSpecifier(file, spec, set);
      if (target) edges.add(rel(target));
      else if (resolve(dirname(file), spec).startsWith(WORKER)) unresolved.push(`${rel(file)}: ${spec}`);
    }
    graph.set(rel(file), [...edges].sort());
  }
  return { graph, unresolved };
}

function rel(file: string): string {
  return relative(ROOT, file).split('\\').join('/');
}

/** Every cycle, as strongly connected components with more than one module (or a self-import). */
function findCycles(graph: Graph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indices.get(w)!));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) visit(v);
  return components;
}

const FEATURE = /^worker\/features\/([^/]+)\/(.+)$/;

/**
 * Edges into a feature's files other than service.ts and contract.ts from anywhere outside that feature
 * (another feature, worker/jobs, worker/lib, …). The two composition roots are exempt: worker/app.ts,
 * which mounts every feature's router, and worker/index.ts, which must export the Workflow entrypoint
 * classes (features' `*-workflow.ts`) from the Worker's main module for Cloudflare to find them.
 */
function boundaryViolations(graph: Graph): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    if (from === 'worker/app.ts') continue;
    const entrypointsOnly = from === 'worker/index.ts';
    const source = FEATURE.exec(from);
    for (const to of targets) {
      const target = FEATURE.exec(to);
      if (!target || target[1] === source?.[1]) continue;
      if (target[2] === 'service.ts' || target[2] === 'contract.ts') continue;
      if (entrypointsOnly && target[2].endsWith('-workflow.ts')) continue;
      out.push(`${from} -> ${to}`);
    }
  }
  return out.sort();
}

/** A feature's reads: its queries.ts, or the files of its queries/ folder (a feature split by job, like listing). */
const QUERIES = /^worker\/features\/([^/]+)\/(queries\.ts|queries\/.+)$/;

/**
 * Edges from a feature's queries to the rest of that feature other than its contract.ts and its other
 * queries: the reads are the bottom layer of a feature (ARCHITECTURE.md "Layers inside the Worker"), so
 * no rule or handler sits below them and no cycle can run through them.
 */
function queriesLayerViolations(graph: Graph): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    const source = QUERIES.exec(from);
    if (!source) continue;
    for (const to of targets) {
      const target = FEATURE.exec(to);
      if (!target || target[1] !== source[1]) continue;
      if (target[2] === 'contract.ts' || QUERIES.test(to)) continue;
      out.push(`${from} -> ${to}`);
    }
  }
  return out.sort();
}

/**
 * The feature graph: one node per folder of worker/features/, an edge where any file of one imports any file of
 * another (issue 45.2). A cycle here couples two features both ways even when no FILE cycle exists (a's service
 * imports b's contract, b's service imports a's service): neither can be changed, tested or split alone.
 */
function featureGraph(graph: Graph): Graph {
  const feature = (file: string) => FEATURE.exec(file)?.[1] ?? null;
  const edges = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const a = feature(from);
    if (!a) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    for (const to of targets) {
      const b = feature(to);
      if (b && b !== a) edges.get(a)!.add(b);
    }
  }
  return new Map([...edges].map(([a, bs]) => [a, [...bs].sort()]));
}

describe('worker module boundaries', () => {
  const { graph, unresolved } = buildGraph(listSources(WORKER));
  const allowed = (edge: string) => ALLOWED_EDGES.has(edge);
  const withoutAllowed: Graph = new Map([...graph].map(([from, targets]) => [from, targets.filter((to) => !allowed(`${from} -> ${to}`))]));

  it('reads a real graph (every relative import under worker/ resolves)', () => {
    expect(unresolved).toEqual([]);
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('worker/app.ts')).toContain('worker/features/auth/routes.ts');
  });

  it('has no import cycle under worker/ (except the allowlisted edges being removed)', () => {
    expect(findCycles(withoutAllowed)).toEqual([]);
  });

  it('has no cycle between feature folders (a feature may depend on another, never both ways)', () => {
    expect(findCycles(featureGraph(graph))).toEqual([]);
  });

  it('keeps worker/lib and worker/ports below the features and the app: they import no feature and not its context', () => {
    const below = [...graph].filter(([from]) => /^worker\/(lib|ports)\//.test(from));
    const up = below.flatMap(([from, targets]) =>
      targets.filter((to) => /^worker\/(features\/|context\.ts$|app\.ts$|middleware\/)/.test(to)).map((to) => `${from} -> ${to}`),
    );
    expect(up).toEqual([]);
  });

  it('lets a feature import only another feature’s service.ts or contract.ts', () => {
    expect(boundaryViolations(graph).filter((edge) => !allowed(edge))).toEqual([]);
  });

  it('keeps a feature’s queries the bottom layer: they import only its contract and its other queries', () => {
    expect(queriesLayerViolations(graph)).toEqual([]);
  });

  it('allowlists only edges that still exist', () => {
    const edges = new Set([...graph].flatMap(([from, targets]) => targets.map((to) => `${from} -> ${to}`)));
    expect([...ALLOWED_EDGES].filter((edge) => !edges.has(edge))).toEqual([]);
  });
});

describe('web module boundaries', () => {
  // The browser code (SPA, public pages' islands, service worker): no cycle either, type-only and lazy imports
  // included (issue 45.2: FollowButton and its lazy FollowDialog imported each other).
  const { graph } = buildGraph(listSources(join(ROOT, 'web')));

  it('reads a real graph', () => {
    expect(graph.size).toBeGreaterThan(50);
  });

  it('has no import cycle under web/', () => {
    expect(findCycles(graph)).toEqual([]);
  });
});

describe('the boundary checks themselves', () => {
  const g = (entries: Record<string, string[]>): Graph => new Map(Object.entries(entries));

  it('finds import, export-from, side-effect and dynamic imports, not commented ones', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b/contract';",
      "import * as c from './c';",
      "import './d';",
      "export { e } from './e';",
      "export * from './f';",
      "const g = await import('./g');",
      "import {\n  h,\n  i,\n} from './h';",
      "// import { x } from './commented';",
      "/* import { y } from './block'; */",
      "import { z } from 'drizzle-orm';",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a', '../b/contract', './c', './d', './e', './f', './g', './h']);
  });

  it('reports a cycle between two features that no single file closes', () => {
    const graph = g({
      'worker/features/a/service.ts': ['worker/features/b/contract.ts'],
      'worker/features/b/service.ts': ['worker/features/a/service.ts'],
      'worker/features/b/contract.ts': [],
      'worker/features/c/service.ts': ['worker/features/a/service.ts'],
    });
    expect(findCycles(graph)).toEqual([]);
    expect(findCycles(featureGraph(graph))).toEqual([['a', 'b']]);
  });

  it('reports a cycle through three modules and a clean graph as clean', () => {
    expect(findCycles(g({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c']]);
    expect(findCycles(g({ a: ['b'], b: ['c'], c: [] }))).toEqual([]);
  });

  it('reports a reach into another feature’s internals but not into its service or contract', () => {
    const graph = g({
      'worker/features/a/service.ts': [
        'worker/features/b/service.ts',
        'worker/features/b/contract.ts',
        'worker/features/b/queries.ts',
        'worker/features/a/queries.ts',
        'worker/lib/clock.ts',
      ],
      'worker/jobs/nightly.ts': ['worker/features/b/queries.ts', 'worker/features/b/service.ts'],
    });
    expect(boundaryViolations(graph)).toEqual([
      'worker/features/a/service.ts -> worker/features/b/queries.ts',
      'worker/jobs/nightly.ts -> worker/features/b/queries.ts',
    ]);
    expect(boundaryViolations(g({ 'worker/app.ts': ['worker/features/b/routes.ts'] }))).toEqual([]);
  });

  it('reports a feature’s queries reaching up into its rules, not into its contract or other queries', () => {
    const graph = g({
      'worker/features/a/queries.ts': ['worker/features/a/contract.ts', 'worker/features/a/service.ts', 'worker/lib/clock.ts'],
      'worker/features/b/queries/walk.ts': ['worker/features/b/queries/where.ts', 'worker/features/b/rank.ts', 'worker/features/a/service.ts'],
      'worker/features/b/near.ts': ['worker/features/b/queries/near.ts'],
    });
    expect(queriesLayerViolations(graph)).toEqual([
      'worker/features/a/queries.ts -> worker/features/a/service.ts',
      'worker/features/b/queries/walk.ts -> worker/features/b/rank.ts',
    ]);
  });
});

/**
 * Issue 28.6: reads and raw SQL live in a feature's queries.ts (or queries-*.ts, or the files of its queries/
 * folder when it is split by job, like listing); everything else in a feature
 * folder (services, routes, pages, consumers, mail, workflows) composes writes from drizzle insert/update/delete
 * builders or the statement builders and read functions its queries export. Flagged, comments stripped: a raw
 * `sql` template (`sql\`…\``, `sql<T>\`…\``, `sql.raw(`, `sql.join(`), `.prepare(` on D1, and a drizzle read
 * (`.select(`, `.selectDistinct(`, `db.query.<table>`).
 */
const QUERIES_FILE = /\/queries(?:[-.][\w.-]+)?\.ts$|\/queries\/[^/]+\.ts$/;
const RAW_SQL_OR_READ: ReadonlyArray<[string, RegExp]> = [
  ['sql template', /(?<![\w.$])sql(?:<[^>]*>)?`/],
  ['sql.raw/sql.join', /(?<![\w.$])sql\.(?:raw|join)\(/],
  ['.prepare(', /\.prepare\(/],
  ['drizzle select', /\.select(?:Distinct)?\(/],
  ['db.query', /\.query\.\w+\.find(?:First|Many)\(/],
];

/**
 * Files allowed to hold raw SQL or a read outside queries, each with its reason. Keep empty: a new entry is a
 * read or a statement that belongs in the feature's queries.ts.
 */
const SQL_OUTSIDE_QUERIES_ALLOWED: ReadonlyMap<string, string> = new Map<string, string>([]);

function sqlOutsideQueries(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  const out: string[] = [];
  for (const file of files) {
    const path = rel(file);
    if (!FEATURE.test(path) || QUERIES_FILE.test(path)) continue;
    const code = read(file)
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    for (const [name, re] of RAW_SQL_OR_READ) if (re.test(code)) out.push(`${path}: ${name}`);
  }
  return out.sort();
}

describe('reads and raw SQL live in queries.ts (issue 28.6)', () => {
  const found = sqlOutsideQueries(listSources(join(WORKER, 'features')));

  it('no feature file other than queries*.ts holds raw SQL text or a drizzle read', () => {
    expect(found.filter((hit) => !SQL_OUTSIDE_QUERIES_ALLOWED.has(hit.split(':')[0]!))).toEqual([]);
  });

  it('allowlists only files that still hold SQL', () => {
    const files = new Set(found.map((hit) => hit.split(':')[0]!));
    expect([...SQL_OUTSIDE_QUERIES_ALLOWED.keys()].filter((f) => !files.has(f))).toEqual([]);
  });

  it('flags sql templates, prepare and drizzle reads, not writes, queries files or comments', () => {
    const texts: Record<string, string> = {
      [join(WORKER, 'features/a/service.ts')]: 'await db.all(sql`SELECT 1`);\n// sql`in a comment`',
      [join(WORKER, 'features/a/queries.ts')]: 'export const x = (db) => db.select().from(t);',
      [join(WORKER, 'features/a/queries-search.ts')]: 'export const y = sql`SELECT 2`;',
      [join(WORKER, 'features/a/queries/walk.ts')]: 'export const z = sql`SELECT 3`;',
      [join(WORKER, 'features/b/routes.ts')]: 'const rows = await c.var.db.select({ n: count() }).from(t);',
      [join(WORKER, 'features/b/report.ts')]: 'const n = sql<number>`count(*)`;',
      [join(WORKER, 'features/c/service.ts')]:
        'await db.batch([db.update(t).set({ a: 1 }).where(eq(t.id, id)), db.delete(u).where(eq(u.id, id))]);\n/* db.select() */',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample is source text holding a template literal
      [join(WORKER, 'features/c/backup.ts')]: "await env.DB.prepare('SELECT 1').all();\nconst key = `d1/${name}.sql`;",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the sample is source text holding a template literal
      [join(WORKER, 'features/c/keys.ts')]: 'const key = `d1/${name}.sql`;',
      [join(WORKER, 'features/d/service.ts')]: 'await db.query.users.findFirst({ where: eq(users.id, id) });',
      [join(WORKER, 'lib/x.ts')]: 'sql`SELECT 1`',
    };
    expect(sqlOutsideQueries(Object.keys(texts), (f) => texts[f]!)).toEqual([
      'worker/features/a/service.ts: sql template',
      'worker/features/b/report.ts: sql template',
      'worker/features/b/routes.ts: drizzle select',
      'worker/features/c/backup.ts: .prepare(',
      'worker/features/d/service.ts: db.query',
    ]);
  });
});
