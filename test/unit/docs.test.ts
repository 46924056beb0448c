/**
 * Docs that cannot rot: README.md and docs/** are checked against the repository.
 * - nothing points outside the repository: a link, or a path in backticks or in prose that starts with `../`,
 *   must stay inside it once resolved from the file (a reader with only the repository has nothing else);
 * - every relative link (Markdown `[text](target)`, `<img src>`, `<a href>`) points to a file or folder that
 *   exists, and a `#fragment` into a Markdown file names one of its headings;
 * - every repository path named in backticks or in prose (`worker/…`, `web/…`, `test/…`, `scripts/…`,
 *   `migrations/…`, `docs/…`; in backticks also a top-level file such as `wrangler.toml`) exists; `{a,b}` and `*`
 *   are expanded, `<name>` placeholders and gitignored build output are skipped;
 * - every folder of worker/features/ has a page: docs/features/<folder>.md, or a group page whose
 *   `**Folders:**` line names `worker/features/<folder>/`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/** README.md plus every Markdown file under docs/. */
function markdownFiles(): string[] {
  const out = [join(root, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.md')) out.push(p);
    }
  };
  if (existsSync(join(root, 'docs'))) walk(join(root, 'docs'));
  return out;
}

/** The text without fenced code blocks (their lines kept empty, so line numbers stay right). */
function withoutFences(text: string): string {
  let inFence = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    })
    .join('\n');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(markdown).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

const PATH_PREFIX = /^(worker|web|test|scripts|migrations|docs)\//;
/** Top-level files named bare: configs, manifests, dotfiles. (`service.ts` alone means a feature's file.) */
const TOP_LEVEL =
  /^(\.(ci\/[\w.-]+|dev\.vars(\.example)?|gitignore)|[\w-]+\.toml|[\w.-]+\.config\.(ts|mjs|js)|package(-lock)?\.json|tsconfig(\.[\w-]+)?\.json|README\.md)$/;
/** Named in the docs, never committed: gitignored build output, local secrets, generated bundles. */
const NOT_COMMITTED = [/^\.dev\.vars$/, /^\.wrangler(\/|$)/, /^worker\/lazy\/[\w-]+\.bundle\.js$/, /^worker\/lazy\/\*\.bundle\.js$/, /^test\/bench\/\.data/];

/** `{a,b}` alternatives, expanded. */
function expandBraces(p: string): string[] {
  const m = /\{([^{}]*,[^{}]*)\}/.exec(p);
  if (!m) return [p];
  return m[1].split(',').flatMap((alt) => expandBraces(p.slice(0, m.index) + alt + p.slice(m.index + m[0].length)));
}

/** Whether a repository path exists; `*` matches within one path segment. */
function pathExists(p: string): boolean {
  const clean = p.replace(/\/$/, '');
  if (!clean.includes('*')) return existsSync(join(root, clean));
  const parts = clean.split('/');
  const match = (dir: string, i: number): boolean => {
    if (i === parts.length) return true;
    const part = parts[i];
    if (!part.includes('*')) return existsSync(join(dir, part)) && match(join(dir, part), i + 1);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
    const re = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    return readdirSync(dir).some((name) => re.test(name) && match(join(dir, name), i + 1));
  };
  return match(root, 0);
}

/** The repository paths a code span names (none when it is not a path). */
function repoPathsIn(span: string): string[] {
  const s = span.trim().replace(/:\d+(-\d+)?$/, '');
  if (/\s/.test(s) || s.includes('<') || /NNNN?/.test(s) || s.includes('…')) return [];
  if (!PATH_PREFIX.test(s) && !TOP_LEVEL.test(s)) return [];
  if (NOT_COMMITTED.some((re) => re.test(s))) return [];
  return expandBraces(s);
}

/** Whether a path resolved from a docs file leaves the repository. */
function outside(resolved: string): boolean {
  const rel = relative(root, resolved);
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** A path in backticks or prose that climbs out of its folder (`../x`), resolved from the file; null otherwise. */
function climbingPath(file: string, token: string): string | null {
  const s = token.trim().replace(/[.,;:)]+$/, '');
  return /^\.\.\//.test(s) && !/\s/.test(s) ? resolve(dirname(file), s) : null;
}

/** Paths named in prose (outside code spans and link targets): `worker/app.ts`, `../shared/x.md`, … */
function prosePaths(line: string): string[] {
  const prose = line
    .replace(/(`+)[^`]+?\1/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/<[^>]*>/g, ' ');
  return [...prose.matchAll(/(?<![\w./-])((?:\.\.\/)+[\w.-][\w./-]*|(?:worker|web|test|scripts|migrations|docs)\/[\w./*{},-]*[\w/*}])/g)].map((m) =>
    m[1]!.replace(/[.,;:]+$/, ''),
  );
}

/** Every problem of one Markdown file: broken relative links, anchors and backticked paths. */
function checkMarkdown(file: string, text: string, read: (p: string) => string | null = readIfMarkdown): string[] {
  const problems: string[] = [];
  const body = withoutFences(text);
  const lines = body.split('\n');
  const where = (i: number) => `${relative(root, file)}:${i + 1}`;
  lines.forEach((line, i) => {
    const targets = [
      ...[...line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]),
      ...[...line.matchAll(/<(?:img|a)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, webcal:
      const [pathPart, fragment] = target.split('#');
      const resolved = pathPart === '' ? file : resolve(dirname(file), decodeURI(pathPart));
      if (outside(resolved)) {
        problems.push(`${where(i)}: link to ${target} leaves the repository`);
        continue;
      }
      if (pathPart !== '' && !existsSync(resolved)) {
        problems.push(`${where(i)}: link to ${target} points nowhere`);
        continue;
      }
      if (fragment && resolved.endsWith('.md')) {
        const content = resolved === file ? text : read(resolved);
        if (content !== null && !headingAnchors(content).has(fragment)) problems.push(`${where(i)}: link to ${target}: no heading #${fragment}`);
      }
    }
    // Paths in inline code spans (`worker/app.ts`, `wrangler.toml`) and in prose (worker/app.ts).
    const named = [...[...line.matchAll(/(`+)([^`]+?)\1/g)].map((m) => m[2]!), ...prosePaths(line)];
    for (const token of named) {
      const climbing = climbingPath(file, token);
      if (climbing !== null) {
        if (outside(climbing)) problems.push(`${where(i)}: ${token} is outside the repository`);
        else if (!existsSync(climbing)) problems.push(`${where(i)}: ${token} does not exist`);
        continue;
      }
      for (const p of repoPathsIn(token)) if (!pathExists(p)) problems.push(`${where(i)}: \`${p}\` does not exist`);
    }
  });
  return problems;
}

function readIfMarkdown(p: string): string | null {
  return existsSync(p) ? readFileSync(p, 'utf8') : null;
}

/** Folders of worker/features/ without a docs page: neither docs/features/<folder>.md nor a page's **Folders:** line. */
function featuresWithoutPage(folders: string[], pages: Record<string, string>): string[] {
  const listed = new Set<string>();
  for (const text of Object.values(pages)) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('**Folders:**')) continue;
      for (const m of line.matchAll(/`worker\/features\/([\w-]+)\/`/g)) listed.add(m[1]!);
    }
  }
  return folders.filter((f) => !(`${f}.md` in pages) && !listed.has(f));
}

function featureFolders(): string[] {
  return readdirSync(join(root, 'worker', 'features'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
}

function featurePages(): Record<string, string> {
  const dir = join(root, 'docs', 'features');
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.md')) : [];
  return Object.fromEntries(names.map((n) => [n, readFileSync(join(dir, n), 'utf8')]));
}

describe('docs', () => {
  it('have no broken relative links, anchors or repository paths', () => {
    const problems = markdownFiles().flatMap((f) => checkMarkdown(f, readFileSync(f, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('have a page for every folder of worker/features/', () => {
    expect(featuresWithoutPage(featureFolders(), featurePages())).toEqual([]);
  });

  // The checker itself: each rule must be able to fail.
  it('catches a broken link, a missing anchor and a missing path', () => {
    const file = join(root, 'docs', 'example.md');
    const text = [
      '# Example heading',
      'See [gone](features/no-such-page.md), [here](#example-heading), [there](#no-such-heading),',
      '[arch](architecture.md#the-layering-rule) and <img src="images/none.png">.',
      'Files: `worker/app.ts`, `worker/nope.ts`, `wrangler.toml`, `nope.toml`, `worker/features/<name>/`,',
      '`web/routes/admin/{CreateQuizPage,NoPage}.tsx`, `test/integration/auth*.test.ts`, `service.ts`, `.dev.vars`, `.wasm`,',
      '`.dev.vars.example`, `.ci/nothing`, `tsconfig.worker.json`, `tsconfig.nope.json`.',
      '```',
      '[ignored](inside/a/fence.md) `worker/ignored.ts`',
      '```',
    ].join('\n');
    const problems = checkMarkdown(file, text, () => '## Another heading');
    expect(problems).toEqual([
      'docs/example.md:2: link to features/no-such-page.md points nowhere',
      'docs/example.md:2: link to #no-such-heading: no heading #no-such-heading',
      'docs/example.md:3: link to architecture.md#the-layering-rule: no heading #the-layering-rule',
      'docs/example.md:3: link to images/none.png points nowhere',
      'docs/example.md:4: `worker/nope.ts` does not exist',
      'docs/example.md:4: `nope.toml` does not exist',
      'docs/example.md:5: `web/routes/admin/NoPage.tsx` does not exist',
      'docs/example.md:6: `.ci/nothing` does not exist',
      'docs/example.md:6: `tsconfig.nope.json` does not exist',
    ]);
  });

  it('catches a link, a backticked path or a prose path that leaves the repository', () => {
    const text = [
      'Spec: [behaviour](../../shared/spec/01.md), <a href="../../shared/STYLE.md">style</a>, [fine](../README.md).',
      'Rules: `../shared/ARCHITECTURE.md` and, in prose, ../shared/ARCHITECTURE.md; see ../README.md.',
    ].join('\n');
    expect(checkMarkdown(join(root, 'docs', 'example.md'), text)).toEqual([
      'docs/example.md:1: link to ../../shared/spec/01.md leaves the repository',
      'docs/example.md:1: link to ../../shared/STYLE.md leaves the repository',
      'docs/example.md:2: ../shared/ARCHITECTURE.md does not exist',
      'docs/example.md:2: ../shared/ARCHITECTURE.md does not exist',
    ]);
    expect(checkMarkdown(join(root, 'README.md'), 'Behaviour: `../shared/spec/01.md`, also ../shared/spec/02.md.')).toEqual([
      'README.md:1: ../shared/spec/01.md is outside the repository',
      'README.md:1: ../shared/spec/02.md is outside the repository',
    ]);
  });

  it('catches a repository path named in prose that does not exist', () => {
    const text = 'Paid through purchaseGuarded (see docs/wave3/money.md), like worker/app.ts and web/pages/ do; docs/features/<name>.md.';
    expect(checkMarkdown(join(root, 'docs', 'example.md'), text)).toEqual(['docs/example.md:1: `docs/wave3/money.md` does not exist']);
  });

  it('catches a feature folder without a page', () => {
    const pages = { 'listing.md': '# Listing', 'group.md': '**Folders:** `worker/features/auth/`, `worker/features/accounts/`' };
    expect(featuresWithoutPage(['listing', 'auth', 'accounts', 'tips'], pages)).toEqual(['tips']);
  });

  it('computes GitHub heading anchors', () => {
    const anchors = headingAnchors('# Speed at scale\n## Rows read (issue 19 §2)\n## `worker/lib` rules\n## Soak\n## Soak');
    expect([...anchors]).toEqual(['speed-at-scale', 'rows-read-issue-19-2', 'workerlib-rules', 'soak', 'soak-1']);
  });
});
