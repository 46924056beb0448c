/**
 * Follow mail in the superadmin's 'Översikt' tab (issue 17 §3–4), read only: follow counts (never
 * addresses) and the queue messages parked as dead letters (their bodies hold ids only).
 */
import { messageTypeLabel, queueLabel } from '../../../worker/lib/admin-labels';
import type { FollowStatsResponse } from '../../../worker/features/follows/contract';
import { useDeadLetters, useFollowStats } from '../../api/admin';
import { Button } from '../ui/Button';
import { TableScroll } from '../ui/TableScroll';
import { Spinner } from '../ui/Spinner';

const STAT_LABELS: Array<[keyof FollowStatsResponse, string]> = [
  ['confirmed', 'Bekräftade bevakningar'],
  ['pending', 'Väntar på bekräftelse'],
  ['places', 'Ställen'],
  ['searches', 'Sökningar'],
  ['confirmedAddresses', 'Bekräftade adresser'],
  ['accounts', 'Konton'],
  ['mailsLast7Days', 'Utskick senaste 7 dagarna'],
  ['deadLetters', 'Olevererade meddelanden'],
];

const th = 'px-3 py-2 text-left font-semibold';
const td = 'px-3 py-2';

function Failed({ message, retry }: { message: string; retry: () => void }) {
  return (
    <div role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
      <p className="font-semibold">{message}</p>
      <Button variant="secondary" className="mt-3" onClick={retry}>
        Försök igen
      </Button>
    </div>
  );
}

/** What a parked message was about, in words (its type: confirm, reminder, digest, push, outbox) or '–'. */
function messageType(body: unknown): string {
  return body && typeof body === 'object' && 'type' in body && typeof body.type === 'string' ? messageTypeLabel(body.type) : '–';
}

const stockholmTime = (iso: string) => new Date(iso).toLocaleString('sv-SE', { timeZone: 'Europe/Stockholm', dateStyle: 'short', timeStyle: 'short' });

export function FollowMailPanel() {
  const stats = useFollowStats();
  const dead = useDeadLetters();
  return (
    <div className="space-y-8">
      <section aria-labelledby="ov-follows" className="space-y-2">
        <h2 id="ov-follows" className="text-xl font-bold">
          Bevakningar
        </h2>
        {stats.isPending ? (
          <Spinner label="Hämtar bevakningar…" />
        ) : stats.isError ? (
          <Failed message={stats.error.message} retry={() => void stats.refetch()} />
        ) : (
          <dl className="grid grid-cols-2 gap-3 rounded-xl bg-white p-4 text-sm sm:grid-cols-4">
            {STAT_LABELS.map(([key, label]) => (
              <div key={key}>
                <dt className="text-slate-700">{label}</dt>
                <dd className="text-2xl font-extrabold tabular-nums">{stats.data[key]}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <section aria-labelledby="ov-dead-letters" className="space-y-2">
        <h2 id="ov-dead-letters" className="text-xl font-bold">
          Olevererade meddelanden
        </h2>
        {dead.isPending ? (
          <Spinner label="Hämtar olevererade meddelanden…" />
        ) : dead.isError ? (
          <Failed message={dead.error.message} retry={() => void dead.refetch()} />
        ) : dead.data.deadLetters.length === 0 ? (
          <p className="text-slate-700">Inga olevererade meddelanden.</p>
        ) : (
          <TableScroll label="Olevererade meddelanden, tabell">
            <table className="w-full rounded-xl bg-white text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className={th}>
                    Tid
                  </th>
                  <th scope="col" className={th}>
                    Kö
                  </th>
                  <th scope="col" className={th}>
                    Typ
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Försök
                  </th>
                  <th scope="col" className={th}>
                    Orsak
                  </th>
                </tr>
              </thead>
              <tbody>
                {dead.data.deadLetters.map((d) => (
                  <tr key={d.id} className="border-b border-slate-100">
                    <td className={td}>{stockholmTime(d.createdAt)}</td>
                    <td className={td}>{queueLabel(d.queue)}</td>
                    <td className={td}>{messageType(d.body)}</td>
                    <td className={`${td} text-right tabular-nums`}>{d.attempts}</td>
                    <td className={`${td} break-all`}>{d.reason ?? '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </div>
  );
}
