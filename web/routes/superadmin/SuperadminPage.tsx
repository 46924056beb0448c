/**
 * /superadmin (spec 02 §2.7): businesses, feedback inbox, visitors' tips (issue 31.1), CSV import, refunds to make
 * ('Att återbetala') and the operations view ('Drift', issue 30). Superadmins only; everyone
 * else is sent to /admin by RequireAuth.
 */
import { useId, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { buttonClass } from '../../components/ui/Button';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { OverviewPanel } from '../../components/analytics/OverviewPanel';
import { FeedbackInbox } from '../../components/superadmin/FeedbackInbox';
import { FollowMailPanel } from '../../components/superadmin/FollowMailPanel';
import { ImportPanel } from '../../components/superadmin/ImportPanel';
import { OpsPanel } from '../../components/superadmin/OpsPanel';
import { RefundsPanel } from '../../components/superadmin/RefundsPanel';
import { TakeoverIssues } from '../../components/superadmin/TakeoverIssues';
import { VenueList } from '../../components/superadmin/VenueList';
import { pendingTipsLabel, TipsPanel } from '../../components/tips/TipsPanel';
import { useTipCount } from '../../api/tips';

const TABS = [
  { id: 'verksamheter', label: 'Verksamheter' },
  { id: 'feedback', label: 'Feedback' },
  { id: 'tips', label: 'Tips' },
  { id: 'import', label: 'Import' },
  { id: 'aterbetalningar', label: 'Att återbetala' },
  { id: 'oversikt', label: 'Översikt' },
  { id: 'drift', label: 'Drift' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export default function SuperadminPage() {
  return <RequireAuth require="superadmin">{() => <Panel />}</RequireAuth>;
}

function Panel() {
  const [search, setSearch] = useSearchParams();
  const base = useId();
  const tipCount = useTipCount().data?.pending ?? 0;
  const current: TabId = TABS.some((t) => t.id === search.get('flik')) ? (search.get('flik') as TabId) : 'verksamheter';
  const select = (id: TabId) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id === 'verksamheter') next.delete('flik');
        else next.set('flik', id);
        return next;
      },
      { replace: true },
    );
  const onKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === current);
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = TABS[(i + step + TABS.length) % TABS.length]!;
    select(next.id);
    document.getElementById(`${base}-tab-${next.id}`)?.focus();
  };

  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold">Superadmin</h1>
        {/* Issue 46.3: a league across businesses (each owner consents on the same screen). */}
        <Link to="/admin/ligor" className={buttonClass('secondary')}>
          Ligor
        </Link>
      </div>
      {/* Wraps on a phone (issue 44.8: the one-line bar made the page 722 px wide at 390). */}
      <div role="tablist" aria-label="Superadmin" className="flex flex-wrap gap-x-1 border-b border-slate-200 sm:gap-x-2" onKeyDown={onKey}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`${base}-tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={current === t.id}
            aria-controls={`${base}-panel-${t.id}`}
            tabIndex={current === t.id ? 0 : -1}
            onClick={() => select(t.id)}
            className={`-mb-px whitespace-nowrap border-b-2 px-3 py-2 font-semibold sm:px-4 ${current === t.id ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-700 hover:text-slate-900'}`}
          >
            {t.label}
            {t.id === 'tips' && tipCount > 0 && (
              <>
                <span aria-hidden="true" className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-bold text-amber-950">
                  {tipCount}
                </span>
                <span className="sr-only">, {pendingTipsLabel(tipCount)}</span>
              </>
            )}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel-${current}`} aria-labelledby={`${base}-tab-${current}`} className="space-y-6">
        {current === 'verksamheter' && (
          <>
            <TakeoverIssues />
            <VenueList />
          </>
        )}
        {current === 'feedback' && <FeedbackInbox />}
        {current === 'tips' && <TipsPanel />}
        {current === 'import' && <ImportPanel />}
        {current === 'aterbetalningar' && <RefundsPanel />}
        {current === 'drift' && <OpsPanel />}
        {current === 'oversikt' && (
          <>
            <OverviewPanel />
            <FollowMailPanel />
          </>
        )}
      </div>
    </div>
  );
}
