import { lazy, Suspense, useState } from 'react';
import { Bell, Plus } from '../ui/icons';
import { trackAttrs, type TrackTarget } from '../analytics/beacon';
import type { FollowTarget } from './target';

export type { FollowTarget, SearchFollowFilters } from './target';

/** The dialog (form, zod contract, API call) is a lazy chunk: public pages only ship this button. */
const FollowDialog = lazy(() => import('./FollowDialog'));

/**
 * "Följ" (a place: venue page, quiz detail dialog) or "Bevaka den här sökningen" (listing filters).
 * Visitors give an e-mail and confirm by mail; signed-in users follow at once (issue 17). `track`: the
 * quiz or business a click is counted for (follow, issue 18).
 */
export function FollowButton({ target, className, track }: { target: FollowTarget; className?: string; track?: TrackTarget }) {
  const [open, setOpen] = useState(false);
  const isSearch = 'filters' in target && !target.person;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        {...trackAttrs('follow', track)}
        className={
          className ??
          'inline-flex items-center gap-1 rounded-full border border-brand-700 bg-white px-3 py-1 text-sm font-semibold text-brand-800 hover:bg-brand-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600'
        }
      >
        {isSearch ? <Bell aria-hidden="true" className="size-4 shrink-0" /> : <Plus aria-hidden="true" className="size-4 shrink-0" />}
        {isSearch ? 'Bevaka den här sökningen' : `Följ ${target.label}`}
      </button>
      {open && (
        <Suspense fallback={null}>
          <FollowDialog target={target} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
