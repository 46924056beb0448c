/**
 * One tsconfig per runtime (issue 45.3, docs/decisions/0016-one-tsconfig-per-runtime.md). `npm run typecheck`
 * (tsc -b) builds every project; these checks keep the split from quietly merging back: the Worker has no DOM,
 * the browser no Worker types, and each runtime's `*.check.ts` file proves it with @ts-expect-error lines that
 * fail the typecheck the day the global they expect to be missing appears.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

interface TsConfig {
  extends?: string;
  files?: string[];
  include?: string[];
  references?: { path: string }[];
  compilerOptions?: { lib?: string[]; types?: string[]; composite?: boolean };
}
const config = (p: string): TsConfig => JSON.parse(readFileSync(join(root, p), 'utf8')) as TsConfig;
const lib = (p: string) => (config(p).compilerOptions?.lib ?? []).map((l) => l.toLowerCase());
const types = (p: string) => config(p).compilerOptions?.types ?? [];

describe('one tsconfig per runtime', () => {
  it('the typecheck builds the solution, which lists every project', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.typecheck).toBe('tsc -b');
    expect(pkg.scripts.lint).toMatch(/^npm run typecheck && /);
    const solution = config('tsconfig.json');
    expect(solution.files).toEqual([]);
    expect(solution.references?.map((r) => r.path).sort()).toEqual(
      ['./test/tsconfig.json', './tsconfig.shared.json', './tsconfig.worker.json', './web/pwa/tsconfig.json', './web/tsconfig.json'].sort(),
    );
  });

  it('the Worker: its own types, no DOM; it sees web/ and the shared modules through their declarations', () => {
    expect(lib('tsconfig.worker.json')).toEqual(['es2023']);
    expect(types('tsconfig.worker.json')).toEqual(['./worker/worker-configuration.d.ts']);
    expect(config('tsconfig.worker.json').references?.map((r) => r.path)).toEqual(['./tsconfig.shared.json', './web/tsconfig.json']);
  });

  it('the browser: the DOM, no Worker types', () => {
    expect(lib('web/tsconfig.json')).toContain('dom');
    expect(types('web/tsconfig.json')).toEqual(['vite/client']);
    expect(config('web/tsconfig.json').include?.every((p) => !p.startsWith('..'))).toBe(true);
  });

  it('the shared modules: neither the DOM nor the Worker types', () => {
    expect(lib('tsconfig.shared.json')).toEqual(['es2023', 'webworker']);
    expect(types('tsconfig.shared.json')).toEqual([]);
    for (const p of config('tsconfig.shared.json').include ?? []) expect(p.startsWith('worker/'), p).toBe(true);
  });

  it('the service worker: webworker, no DOM', () => {
    expect(lib('web/pwa/tsconfig.json')).toEqual(['es2023', 'webworker']);
  });

  it('each runtime has a check file whose @ts-expect-error lines name the globals it must not have', () => {
    const checks: [string, string[]][] = [
      ['worker/runtime.check.ts', ['window', 'document']],
      ['worker/lib/runtime-shared.check.ts', ['window', 'HTMLRewriter']],
      ['web/runtime.check.ts', ['HTMLRewriter', 'D1Database']],
    ];
    for (const [file, globals] of checks) {
      expect(existsSync(join(root, file)), file).toBe(true);
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      for (const name of globals) {
        const at = lines.findIndex((l) => new RegExp(`=\\s*${name};$`).test(l));
        expect(at, `${file}: ${name}`).toBeGreaterThan(0);
        expect(lines[at - 1], `${file}: ${name}`).toMatch(/^\/\/ @ts-expect-error /);
      }
    }
    expect(config('tsconfig.shared.json').include).toContain('worker/lib/runtime-shared.check.ts');
  });
});
