import { AVAILABILITY_LABELS, type AvailabilityStatus } from '../../../worker/features/promotion/contract';

const STYLE: Record<AvailabilityStatus, string> = {
  available: 'bg-emerald-100 text-emerald-900',
  limited: 'bg-amber-100 text-amber-900',
  soldout: 'bg-red-100 text-red-900',
  purchased: 'bg-sky-100 text-sky-900',
  unknown: 'bg-slate-100 text-slate-700',
};

/** Availability of one tier on one date: available, limited (≤ 1 left), sold out, purchased, unknown (spec 02 §4.2). */
export function AvailabilityBadge({ status, slots }: { status: AvailabilityStatus; slots?: number }) {
  const text = status === 'limited' && slots !== undefined ? `${AVAILABILITY_LABELS.limited} – ${slots} kvar` : AVAILABILITY_LABELS[status];
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STYLE[status]}`}>{text}</span>;
}
