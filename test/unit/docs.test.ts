/**
 * Docs that cannot rot: README.md and docs/** are checked against the repository.
 * - every relative link (Markdown `[text](target)`, `<img src>`, `<a href>`) points to a file or folder that
 *   exists, and a `#fragment` into a Markdown file names one of its headings;
 * - every repository path named in backticks (`worker/…`, `web/…`, `test/…`, `scripts/…`, `migrations/…`,
 *   `docs/…`, or a top-level file such as `wrangler.toml`) exists; `{a,b}` and `*` are expanded, `<name>`
 *   placeholders and gitignored build output are skipped;
 * - every folder of worker/features/ has a page: docs/features/<folder>.md, or a group page whose
 *   `**Folders:**` line names `worker/features/<folder>/`.
 * docs/wave3/ holds drafts that are folded into these pages; it is not checked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/** README.md plus every Markdown file under docs/ (without the docs/wave3 drafts). */
function markdownFiles(): string[] {
  const out = [join(root, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (relative(root, p) !== join('docs', 'wave3')) walk(p);
      } else if (entry.name.endsWith('.md')) out.push(p);
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
  /^(\.(ci\/[\w.-]+|dev\.vars(\.example)?|gitignore)|[\w-]+\.toml|[\w.-]+\.config\.(ts|mjs|js)|package(-lock)?\.json|tsconfig\.json|README\.md)$/;
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
      if (pathPart !== '' && !existsSync(resolved)) {
        problems.push(`${where(i)}: link to ${target} points nowhere`);
        continue;
      }
      if (fragment && resolved.endsWith('.md')) {
        const content = resolved === file ? text : read(resolved);
        if (content !== null && !headingAnchors(content).has(fragment)) problems.push(`${where(i)}: link to ${target}: no heading #${fragment}`);
      }
    }
    // Inline code spans outside links' targets: `worker/app.ts`, `wrangler.toml`, …
    for (const m of line.matchAll(/(`+)([^`]+?)\1/g)) {
      for (const p of repoPathsIn(m[2])) if (!pathExists(p)) problems.push(`${where(i)}: \`${p}\` does not exist`);
    }
  });
  return problems;
}

function readIfMarkdown(p: string): string | null {
  return existsSync(p) ? readFileSync(p, 'utf8') : null;
}

/** Folders of worker/features/ without a docs page (own page or a group page's **Folders:** line). */
function featuresWithoutPage(): string[] {
  const featuresDir = join(root, 'worker', 'features');
  const folders = readdirSync(featuresDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const pagesDir = join(root, 'docs', 'features');
  const pages = existsSync(pagesDir) ? readdirSync(pagesDir).filter((n) => n.endsWith('.md')) : [];
  const listed = new Set<string>();
  for (const page of pages) {
    const text = readFileSync(join(pagesDir, page), 'utf8');
    for (const line of text.split('\n')) {
      if (!line.startsWith('**Folders:**')) continue;
      for (const m of line.matchAll(/`worker\/features\/([\w-]+)\/`/g)) listed.add(m[1]);
    }
  }
  return folders.filter((f) => !pages.includes(`${f}.md`) && !listed.has(f));
}

describe('docs', () => {
  it('have no broken relative links, anchors or repository paths', () => {
    const problems = markdownFiles().flatMap((f) => checkMarkdown(f, readFileSync(f, 'utf8')));
    expect(problems).toEqual([]);
  });

  it('have a page for every folder of worker/features/', () => {
    expect(featuresWithoutPage()).toEqual([]);
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
      '`.dev.vars.example`, `.ci/nothing`.',
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
    ]);
  });

  it('computes GitHub heading anchors', () => {
    const anchors = headingAnchors('# Speed at scale\n## Rows read (issue 19 §2)\n## `worker/lib` rules\n## Soak\n## Soak');
    expect([...anchors]).toEqual(['speed-at-scale', 'rows-read-issue-19-2', 'workerlib-rules', 'soak', 'soak-1']);
  });
});
