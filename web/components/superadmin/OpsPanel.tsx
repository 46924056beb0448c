/**
 * The superadmin's 'Drift' tab (issue 30 §4), read only: open alerts, configuration checks, the last run
 * of every job (a killed run as "Misslyckades (avbröts)"), mail and dead letters, imports, the newest
 * successful backup (size, tables, rows), the Stripe webhook and 5xx per hour.
 * Data: GET /api/admin/status (worker/features/ops), refreshed every minute.
 */
import type { ReactNode } from 'react';
import { jobLabel } from '../../../worker/lib/admin-labels';
import { useOpsStatus } from '../../api/admin';
import { Button } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { byteSize, jobStatusText } from './ops-format';

const th = 'px-3 py-2 text-left font-semibold';
const td = 'px-3 py-2';

const stockholmTime = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('sv-SE', { timeZone: 'Europe/Stockholm', dateStyle: 'short', timeStyle: 'short' }) : '–';

function duration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1).replace('.', ',')} s`;
  return `${Math.round(ms / 60_000)} min`;
}

function Badge({ ok, children }: { ok: boolean; children: ReactNode }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${ok ? 'bg-green-100 text-green-900' : 'bg-red-100 text-red-900'}`}>{children}</span>;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-2 gap-3 rounded-xl bg-white p-4 text-sm sm:grid-cols-4">
      {items.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-slate-700">{label}</dt>
          <dd className="text-lg font-bold tabular-nums [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function OpsPanel() {
  const status = useOpsStatus();
  if (status.isPending) return <Spinner label="Hämtar driftläget…" />;
  if (status.isError)
    return (
      <div role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
        <p className="font-semibold">{status.error.message}</p>
        <Button variant="secondary" className="mt-3" onClick={() => void status.refetch()}>
          Försök igen
        </Button>
      </div>
    );
  const s = status.data;
  const failedChecks = s.checks.filter((c) => !c.ok);
  return (
    <div className="min-w-0 space-y-8 [overflow-wrap:anywhere]">
      <p className="text-sm text-slate-700">Uppdaterad {stockholmTime(s.generatedAt)}. Larm skickas med e-post till alla superadmins.</p>

      <Section id="ops-incidents" title="Larm">
        {s.incidents.open.length === 0 ? (
          <p className="text-slate-700">Inga pågående larm.</p>
        ) : (
          <ul className="space-y-2">
            {s.incidents.open.map((i) => (
              <li key={i.key} className="rounded-xl bg-red-50 p-3 text-red-900">
                <span className="font-semibold">{i.summary}</span> <span className="text-sm">(sedan {stockholmTime(i.openedAt)})</span>
              </li>
            ))}
          </ul>
        )}
        {s.incidents.recent.length > 0 && (
          <details className="text-sm">
            <summary className="cursor-pointer font-semibold">Åtgärdade larm</summary>
            <ul className="mt-2 space-y-1">
              {s.incidents.recent.map((i) => (
                <li key={`${i.key}${i.openedAt}`}>
                  {i.summary}: {stockholmTime(i.openedAt)} – {stockholmTime(i.resolvedAt)}
                </li>
              ))}
            </ul>
          </details>
        )}
      </Section>

      <Section id="ops-checks" title="Konfiguration">
        {failedChecks.length === 0 ? (
          <p className="text-slate-700">Alla kontroller är godkända.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {failedChecks.map((c) => (
              <li key={c.key}>
                <Badge ok={false}>{c.level === 'fel' ? 'Fel' : 'Varning'}</Badge> {c.message}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="ops-jobs" title="Schemalagda jobb">
        {s.jobs.length === 0 ? (
          <p className="text-slate-700">Inga körningar de senaste 30 dagarna.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full rounded-xl bg-white text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className={th}>
                    Jobb
                  </th>
                  <th scope="col" className={th}>
                    Status
                  </th>
                  <th scope="col" className={th}>
                    Senast
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Tid
                  </th>
                  <th scope="col" className={th}>
                    Fel
                  </th>
                </tr>
              </thead>
              <tbody>
                {s.jobs.map((j) => {
                  const badge = jobStatusText(j);
                  return (
                    <tr key={j.job} className="border-b border-slate-100">
                      <th scope="row" className={`${td} font-medium`}>
                        {jobLabel(j.job)}
                      </th>
                      <td className={td}>
                        <Badge ok={badge.ok}>{badge.text}</Badge>
                      </td>
                      <td className={td}>{stockholmTime(j.startedAt)}</td>
                      <td className={`${td} text-right tabular-nums`}>{duration(j.ms)}</td>
                      <td className={`${td} break-all`}>{j.error ?? '–'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Section>

      <Section id="ops-backup" title="Säkerhetskopia">
        {s.backup ? (
          <Facts
            items={[
              ['Senaste lyckade', stockholmTime(s.backup.at)],
              ['Ålder', `${s.backup.ageHours.toLocaleString('sv-SE')} h`],
              ['Storlek', byteSize(s.backup.bytes)],
              ['Tabeller', s.backup.tables?.toLocaleString('sv-SE') ?? '–'],
              ['Rader', s.backup.rows?.toLocaleString('sv-SE') ?? '–'],
            ]}
          />
        ) : (
          <p className="text-slate-700">Ingen säkerhetskopia har lyckats ännu.</p>
        )}
      </Section>

      <Section id="ops-mail" title="E-post">
        <Facts
          items={[
            ['Väntar på att skickas', s.mail.pending],
            ['Misslyckade', s.mail.failed],
            ['I dead-letter-kön', s.mail.deadLetters],
            ['Äldsta väntande', stockholmTime(s.mail.oldestPendingAt)],
          ]}
        />
      </Section>

      <Section id="ops-imports" title="Importer">
        {s.imports.running.length === 0 && s.imports.failed.length === 0 ? (
          <p className="text-slate-700">Inga pågående eller misslyckade importer.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {s.imports.running.map((j) => (
              <li key={j.id}>
                <Badge ok>Pågår</Badge> {j.fileName}: {j.processedRows} av {j.totalRows} rader (start {stockholmTime(j.startedAt)})
              </li>
            ))}
            {s.imports.failed.map((j) => (
              <li key={j.id}>
                <Badge ok={false}>Misslyckades</Badge> {j.fileName} ({stockholmTime(j.finishedAt)}): {j.error ?? 'okänt fel'}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="ops-webhook" title="Stripe och serverfel">
        <Facts
          items={[
            ['Senaste webhook', stockholmTime(s.webhook.lastReceivedAt)],
            ['Händelse', s.webhook.lastType ?? '–'],
            ['Ogiltiga signaturer i dag', s.webhook.signatureFailuresToday],
            ['Serverfel (5xx) senaste dygnet', s.serverErrors.last24h],
          ]}
        />
        {s.serverErrors.hours.length > 0 && (
          <table className="w-full max-w-sm rounded-xl bg-white text-sm">
            <caption className="sr-only">Serverfel per timme</caption>
            <thead>
              <tr className="border-b border-slate-200">
                <th scope="col" className={th}>
                  Timme
                </th>
                <th scope="col" className={`${th} text-right`}>
                  5xx
                </th>
              </tr>
            </thead>
            <tbody>
              {s.serverErrors.hours.map((h) => (
                <tr key={h.hour} className="border-b border-slate-100">
                  <td className={td}>{stockholmTime(`${h.hour}:00:00Z`)}</td>
                  <td className={`${td} text-right tabular-nums`}>{h.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}
