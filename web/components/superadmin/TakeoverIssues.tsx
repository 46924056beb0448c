import { useCallback, useEffect, useState } from 'react';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';
import { adminApi } from '../../api/admin';

type Issue = Awaited<ReturnType<typeof adminApi.takeoverIssues>>['issues'][number];

/** Half-done takeovers with a repair button (fix-takeover-issues, spec 02 §4.6, §8). */
export function TakeoverIssues() {
  const [issues, setIssues] = useState<Issue[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setIssues((await adminApi.takeoverIssues()).issues);
    } catch {
      setIssues([]);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function fix(issue: Issue) {
    setBusy(`${issue.userId}:${issue.venueId}`);
    try {
      const res = await adminApi.fixTakeover({ userId: issue.userId, venueId: issue.venueId });
      toast({ title: res.message, description: (res.success ? res.fixed : res.errors).join(' ') || undefined, variant: res.success ? 'success' : 'destructive' });
      await load();
    } catch {
      toast({ title: 'Kunde inte fixa alla problem', variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  if (!issues?.length) return null;
  return (
    <section aria-labelledby="takeover-issues-heading" className="space-y-3 rounded-2xl border border-amber-300 bg-amber-50 p-4">
      <h2 id="takeover-issues-heading" className="text-lg font-bold text-amber-950">
        Ofullständiga övertaganden
      </h2>
      <ul className="space-y-2">
        {issues.map((i) => (
          <li key={`${i.userId}:${i.venueId}`} className="flex flex-wrap items-center justify-between gap-2">
            <span>
              <strong>{i.email}</strong> → {i.venueName ?? i.venueId}: {i.problems.join(', ')}
            </span>
            <Button variant="secondary" className="text-sm" disabled={busy === `${i.userId}:${i.venueId}`} onClick={() => void fix(i)}>
              Fixa
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
