import { useState } from 'react';
import { useAnswerTeamReport, useTeamReports } from '../../api/tips';
import type { AdminTeamReport } from '../../../worker/features/results/contract';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';

/** Reported team names (issue 46) in the "Tips" tab: rename, hide or dismiss. */
export function TeamReportsPanel() {
  const reports = useTeamReports();
  const items = reports.data?.items ?? [];
  if (!items.length) return null;
  return (
    <section aria-labelledby="team-reports-heading" className="space-y-3">
      <h2 id="team-reports-heading" className="text-2xl font-bold">
        Anmälda lagnamn
      </h2>
      <ul className="space-y-3">
        {items.map((r) => (
          <TeamReport key={r.id} report={r} />
        ))}
      </ul>
    </section>
  );
}

function TeamReport({ report }: { report: AdminTeamReport }) {
  const answer = useAnswerTeamReport();
  const [name, setName] = useState(report.team.name);
  const [error, setError] = useState<string | null>(null);
  const run = (v: Parameters<typeof answer.mutateAsync>[0]) =>
    answer.mutateAsync(v).catch((e: unknown) => setError(e instanceof Error ? e.message : 'Något gick fel'));
  return (
    <li className="space-y-2 rounded-2xl border border-slate-200 bg-white p-4">
      <p>
        <a href={`/lag/${report.team.slug}`} className="font-semibold text-brand-700 underline">
          {report.team.name}
        </a>
        {report.team.hidden ? ' (dolt)' : ''}: {report.reason}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <TextField label="Nytt namn" value={name} onChange={(e) => setName(e.target.value)} error={error ?? undefined} />
        <Button disabled={answer.isPending} onClick={() => void run({ action: 'rename', teamId: report.team.id, name })}>
          Byt namn
        </Button>
        <Button variant="secondary" disabled={answer.isPending} onClick={() => void run({ action: 'hide', teamId: report.team.id })}>
          Dölj laget
        </Button>
        <Button variant="ghost" disabled={answer.isPending} onClick={() => void run({ action: 'dismiss', id: report.id })}>
          Avfärda
        </Button>
      </div>
    </li>
  );
}
