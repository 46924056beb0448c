import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentToasts, toast } from './Toast';

describe('toast (issue 29.4)', () => {
  afterEach(() => vi.useRealTimers());

  it('a new toast replaces the stale one: a failed try never stands next to its later success', () => {
    vi.useFakeTimers();
    toast({ title: 'Misslyckades skapa quiz', variant: 'destructive' });
    toast({ title: 'Quiz skapat!', variant: 'success' });
    expect(currentToasts().map((t) => t.title)).toEqual(['Quiz skapat!']);
  });

  it("the replaced toast's timer does not remove the new one", () => {
    vi.useFakeTimers();
    toast({ title: 'Första', duration: 1000 });
    toast({ title: 'Andra', duration: 5000 });
    vi.advanceTimersByTime(1500);
    expect(currentToasts().map((t) => t.title)).toEqual(['Andra']);
    vi.advanceTimersByTime(4000);
    expect(currentToasts()).toEqual([]);
  });
});
