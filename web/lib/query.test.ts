import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { createQueryClient, isRetryable } from './query';

describe('the SPA QueryClient (spec 01 §9, 02 §9)', () => {
  it('fresh 5 min, kept 10 min, one retry after 1 s, no refetch on focus', () => {
    const q = createQueryClient().getDefaultOptions().queries!;
    expect(q.staleTime).toBe(5 * 60_000);
    expect(q.gcTime).toBe(10 * 60_000);
    expect(q.retryDelay).toBe(1000);
    expect(q.refetchOnWindowFocus).toBe(false);
    const retry = q.retry as (failures: number, err: unknown) => boolean;
    expect(retry(0, new ApiError(503, 'unavailable', 'x'))).toBe(true);
    expect(retry(1, new ApiError(503, 'unavailable', 'x'))).toBe(false);
  });
  it('never retries a client error', () => {
    expect(isRetryable(new ApiError(404, 'not_found', 'x'))).toBe(false);
    expect(isRetryable(new ApiError(403, 'forbidden', 'x'))).toBe(false);
    expect(isRetryable(new ApiError(0, 'network', 'x'))).toBe(true);
    expect(isRetryable(new ApiError(500, 'internal', 'x'))).toBe(true);
  });
});
