import type { TakeoverIssuesResponse } from '../../../worker/features/admin/contract';
import { useFixTakeover, useTakeoverIssues } from '../../api/admin';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';

type Issue = TakeoverIssuesResponse['issues'][number];

/** Half-done takeovers with a repair button (fix-takeover-issues, spec 02 §4.6, §8). */
export function TakeoverIssues() {
  // A failed load shows nothing: the panel is only a helper next to the list.
  const issues = useTakeoverIssues().data?.issues;
  const fixing = useFixTakeover();
  const busy = fixing.isPending && fixing.variables ? `${fixing.variables.userId}:${fixing.variables.venueId}` : null;

  async function fix(issue: Issue) {
    try {
      const res = await fixing.mutateAsync({ userId: issue.userId, venueId: issue.venueId });
      toast({
        title: res.message,
        description: (res.success ? res.fixed : res.errors).join(' ') || undefined,
        variant: res.success ? 'success' : 'destructive',
      });
    } catch {
      toast({ title: 'Kunde inte fixa alla problem', variant: 'destructive' });
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
