/**
 * Contracts build their schemas on first use (worker/lib/lazy-schema.ts, decision 0018): the proxy must behave as the
 * schema itself wherever zod, Hono's validator and the forms' resolver use one, and every contract's top-level schema
 * must be built lazily, or each cold start pays for all of them again.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { zodResolver } from '@hookform/resolvers/zod';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { lazySchema } from '../../worker/lib/lazy-schema';

describe('lazySchema', () => {
  it('builds once, on first use, and answers as the schema', async () => {
    let builds = 0;
    const Inner = lazySchema(() => {
      builds++;
      return z.object({ name: z.string().min(1, 'Ange namn').describe('Namn'), n: z.coerce.number().int() });
    });
    expect(builds).toBe(0);
    const Outer = lazySchema(() => Inner.extend({ extra: z.string().optional() }));
    const Nested = lazySchema(() => z.object({ inner: Inner }));
    expect(builds).toBe(0);

    expect(Inner.parse({ name: 'A', n: '4' })).toEqual({ name: 'A', n: 4 });
    expect(builds).toBe(1);
    expect(Outer.safeParse({ name: '', n: 1 }).error?.issues[0]?.message).toBe('Ange namn');
    expect(Nested.parse({ inner: { name: 'B', n: 2 } })).toEqual({ inner: { name: 'B', n: 2 } });
    expect(builds).toBe(1);

    expect(Inner instanceof z.ZodObject).toBe(true);
    expect('_zod' in Inner).toBe(true);
    expect(Object.keys(Inner.shape)).toEqual(['name', 'n']);
    expect(Inner.shape.name.description).toBe('Namn');
    expect(Object.keys(Inner)).toContain('def');
    expect(await Inner['~standard'].validate({ name: 'C', n: 3 })).toEqual({ value: { name: 'C', n: 3 } });
  });

  it("works with the forms' resolver", async () => {
    const Form = lazySchema(() => z.object({ name: z.string().min(1, 'Ange namn') }));
    const resolve = zodResolver(Form);
    const bad = await resolve({ name: '' }, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(bad.errors.name?.message).toBe('Ange namn');
    expect((await resolve({ name: 'x' }, undefined, { fields: {}, shouldUseNativeValidation: false })).values).toEqual({ name: 'x' });
  });

  it("wraps every contract's top-level schema", () => {
    const eager: string[] = [];
    const files = execFileSync('git', ['ls-files', 'worker'], { encoding: 'utf8' }).split('\n');
    for (const file of files.filter((f) => /contract\.ts$|\/queue\.ts$|\/nightly\.ts$/.test(f) && !f.endsWith('.test.ts'))) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/^(export )?const \w+(: [^=]+)? = z\b/.test(line)) eager.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(eager).toEqual([]);
  });
});
