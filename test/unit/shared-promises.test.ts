/**
 * Issue 27.2: nothing shared across requests is a promise (a promise belongs to the request that made it;
 * if that request is cancelled, everyone awaiting it can hang). `createOnceMemo` keeps the value; the
 * page assets (worker/lib/assets.ts) use it and log a failed manifest load instead of swallowing it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOnceMemo } from '../../worker/lib/version-memo';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const never = <T>() => new Promise<T>(() => {});

describe('createOnceMemo', () => {
  it('keeps the value once loaded; concurrent callers share the load; a failed load is not kept', async () => {
    const memo = createOnceMemo<number>({ joinWaitMs: 250, afterWait: 'load' });
    let calls = 0;
    await expect(
      memo.get(async () => {
        calls++;
        throw new Error('down');
      }),
    ).rejects.toThrow('down');
    let release!: (v: number) => void;
    const load = () => {
      calls++;
      return new Promise<number>((r) => {
        release = r;
      });
    };
    const both = Promise.all([memo.get(load), memo.get(load)]);
    release(7);
    expect(await both).toEqual([7, 7]);
    expect(await memo.get(load)).toBe(7);
    expect(calls).toBe(2);
  });

  it("afterWait 'load': a caller joins a load that never settles for at most joinWaitMs, then loads itself", async () => {
    vi.useFakeTimers();
    const memo = createOnceMemo<string>({ joinWaitMs: 250, afterWait: 'load' });
    void memo.get(never); // the first request's load, never settling (that request was cancelled)
    let answered: string | undefined;
    void memo.get(async () => 'own').then((v) => (answered = v));
    await vi.advanceTimersByTimeAsync(249);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toBe('own');
    // Its value is kept for everyone after.
    expect(await memo.get(never)).toBe('own');
  });

  it("afterWait 'fail': the joiner is refused after joinWaitMs (it never starts a second load)", async () => {
    vi.useFakeTimers();
    const memo = createOnceMemo<string>({ joinWaitMs: 5_000, afterWait: 'fail' });
    void memo.get(never);
    const second = vi.fn(async () => 'second');
    const joined = memo.get(second);
    const check = expect(joined).rejects.toThrow(/still loading after 5000 ms/);
    await vi.advanceTimersByTimeAsync(5_000);
    await check;
    expect(second).not.toHaveBeenCalled();
  });
});

/** A fake ASSETS binding: answers by path; `hang` makes the manifest request never answer. */
function fakeAssets(opts: { manifest?: unknown; status?: number; hang?: boolean }) {
  const calls: string[] = [];
  const fetcher = {
    calls,
    fetch: async (url: string) => {
      const path = new URL(url).pathname;
      calls.push(path);
      if (path === '/manifest.json') {
        if (opts.hang) return never<Response>();
        if (opts.status) return new Response('nope', { status: opts.status });
        return Response.json(opts.manifest);
      }
      return new Response('body{color:red}', { status: 200 });
    },
  };
  return fetcher as unknown as Fetcher & { calls: string[] };
}

const MANIFEST = { 'public-entry.tsx': { file: 'assets/public-abc.js', css: ['assets/public-abc.css'] } };

/** A fresh copy of the module (its per-isolate state starts empty). */
async function freshAssets() {
  vi.resetModules();
  return import('../../worker/lib/assets');
}

describe('getPublicAssets (worker/lib/assets.ts)', () => {
  it('a request whose manifest load never settles does not hang the next one', async () => {
    vi.useFakeTimers();
    const { getPublicAssets } = await freshAssets();
    void getPublicAssets(fakeAssets({ hang: true }));
    let got: unknown;
    void getPublicAssets(fakeAssets({ manifest: MANIFEST })).then((a) => (got = a));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(got).toEqual({ script: '/assets/public-abc.js', styles: ['/assets/public-abc.css'], preloads: [], inlineCss: 'body{color:red}' });
  });

  it('a failed manifest load is logged (console.error), pages get no assets, and it is not retried on every request', async () => {
    const { getPublicAssets, ASSETS_RETRY_MS } = await freshAssets();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = fakeAssets({ status: 500 });
    expect(await getPublicAssets(broken)).toMatchObject({ script: null, inlineCss: null });
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]![0])).toMatch(/manifest load failed.*manifest\.json: 500/);
    expect(await getPublicAssets(broken)).toMatchObject({ script: null });
    expect(broken.calls.filter((p) => p === '/manifest.json')).toHaveLength(1);
    expect(ASSETS_RETRY_MS).toBeGreaterThan(0);
  });

  it("the site's stylesheet is the SPA entry's: the public entry imports none (issue 29.13)", async () => {
    const { getPublicAssets } = await freshAssets();
    const manifest = {
      'index.html': { file: 'assets/app-1.js', css: ['assets/shell-1.css'], imports: ['_shared.js'] },
      'public-entry.tsx': { file: 'assets/public-abc.js', imports: ['_shared.js'] },
      '_shared.js': { file: 'assets/shared-2.js' },
    };
    const got = await getPublicAssets(fakeAssets({ manifest }));
    expect(got.styles).toEqual(['/assets/shell-1.css']);
    expect(got.inlineCss).toBe('body{color:red}');
    expect(got.preloads).toEqual(['/assets/shared-2.js']);
  });

  it("the boot script preloads the entry's whole static closure: an import of an import too, each once", async () => {
    const { getPublicAssets } = await freshAssets();
    const manifest = {
      'public-entry.tsx': { file: 'assets/public-abc.js', imports: ['_react.js', '_shared.js'] },
      '_react.js': { file: 'assets/react-1.js' },
      '_shared.js': { file: 'assets/shared-2.js', imports: ['_saved.js', '_react.js'], css: ['assets/shared-2.css'] },
      '_saved.js': { file: 'assets/saved-3.js' },
      'owner.tsx': { file: 'assets/owner-4.js', imports: ['_react.js'] },
    };
    const got = await getPublicAssets(fakeAssets({ manifest }));
    expect(got.preloads).toEqual(['/assets/react-1.js', '/assets/shared-2.js', '/assets/saved-3.js']);
    expect(got.styles).toEqual(['/assets/shared-2.css']);
  });

  it("the page's React tree, a dynamic import of the entry, is preloaded with its closure; the entry's other dynamic imports are not", async () => {
    const { getPublicAssets, HYDRATION_MODULE } = await freshAssets();
    const manifest = {
      'public-entry.tsx': {
        file: 'assets/public-abc.js',
        imports: ['_runtime.js'],
        dynamicImports: ['_react.js', HYDRATION_MODULE, 'components/map/QuizMap.tsx'],
      },
      '_runtime.js': { file: 'assets/runtime-0.js' },
      '_react.js': { file: 'assets/react-1.js' },
      [HYDRATION_MODULE]: { file: 'assets/hydrate-2.js', imports: ['_runtime.js', '_react.js', '_shell.js'], dynamicImports: ['components/map/QuizMap.tsx'] },
      '_shell.js': { file: 'assets/shell-3.js', css: ['assets/shell-3.css'] },
      'components/map/QuizMap.tsx': { file: 'assets/QuizMap-4.js', imports: ['_leaflet.js'] },
      '_leaflet.js': { file: 'assets/leaflet-5.js' },
    };
    const got = await getPublicAssets(fakeAssets({ manifest }));
    expect(got.preloads).toEqual(['/assets/runtime-0.js', '/assets/hydrate-2.js', '/assets/react-1.js', '/assets/shell-3.js']);
    expect(got.styles).toEqual(['/assets/shell-3.css']);
  });

  it('no build at all (manifest 404) is not an error: one warning per isolate', async () => {
    const { getPublicAssets } = await freshAssets();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await getPublicAssets(fakeAssets({ status: 404 }))).toMatchObject({ script: null });
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
