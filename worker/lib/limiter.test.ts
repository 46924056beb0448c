import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createLimiter', () => {
  it('runs at most n tasks at once, starts the next as one ends, and frees the slot of a failed task', async () => {
    const limit = createLimiter(2);
    const started: number[] = [];
    const end: Record<number, () => void> = {};
    const run = (i: number, fail = false) =>
      limit(() => {
        started.push(i);
        return new Promise<number>((resolve, reject) => {
          end[i] = () => (fail ? reject(new Error('boom')) : resolve(i));
        });
      }).catch((e: Error) => e.message);
    const all = Promise.all([run(0, true), run(1), run(2), run(3)]);
    await tick();
    expect(started).toEqual([0, 1]);
    end[0]!();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    end[1]!();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    end[2]!();
    end[3]!();
    expect(await all).toEqual(['boom', 1, 2, 3]);
  });
});
