/**
 * Payment return on the owner dashboard (spec 02 §4.3). Reads ?payment=success|cancelled|failed with
 * session_id (and order_id, venueId) once, then:
 *   cancelled → failure dialog 'cancelled' (no retry); the checkout is ended so its slots are freed.
 *   failed    → failure dialog 'payment_failed'.
 *   success   → verification (our own state only), up to 3 attempts 2 s apart: success dialog (with an
 *               'already active' note on a repeat); network errors retried, then 'network_error'.
 *               Every other outcome has its own dialog and words (issue 29.4, messages.ts): an unknown
 *               session ('not_found'), an expired checkout, a payment not confirmed yet ('pending').
 * The URL is cleaned afterwards; a superadmin with venueId returns to /admin/venue/{venueId}.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { VerifyResponse } from '../../../worker/features/payments/contract';
import { TIER_LABELS } from '../../../worker/features/promotion/contract';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { promotionApi, shortDate } from './api';
import { FAILURE_TEXT, paidLine, RETRY_VERIFY, type FailureType } from './messages';

export type { FailureType } from './messages';

export const VERIFY_ATTEMPTS = 3;
export const VERIFY_DELAY_MS = 2000;

type View =
  | { kind: 'none' }
  | { kind: 'verifying'; attempt: number; retrying: boolean }
  | { kind: 'success'; result: VerifyResponse }
  | { kind: 'failure'; type: FailureType; message?: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default function PaymentReturn({ onPaid }: { onPaid?: () => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const [view, setView] = useState<View>({ kind: 'none' });
  const [supportEmail, setSupportEmail] = useState('support@quizkvall.se');
  const handled = useRef<string | null>(null);
  const sessionIdRef = useRef<string | null>(null);
  const targetRef = useRef<string>('/admin');
  const onPaidRef = useRef(onPaid);
  onPaidRef.current = onPaid;

  const isSuperadmin = session.status === 'ready' && !!session.session.user?.isSuperadmin;

  // An effect event: runs when the query changes, reading the pathname and verify() of that moment.
  const handleReturn = useEffectEvent((search: string) => {
    const params = new URLSearchParams(search);
    const payment = params.get('payment');
    if (!payment || !['success', 'cancelled', 'failed'].includes(payment)) return;
    const key = search;
    if (handled.current === key) return;
    handled.current = key;
    sessionIdRef.current = params.get('session_id');
    const orderId = params.get('order_id');
    promotionApi.support().then(
      (s) => setSupportEmail(s.supportEmail),
      () => undefined,
    );

    // Clean the URL now so a reload does not repeat the flow; the dialogs keep their own state.
    const clean = new URLSearchParams(params);
    for (const k of ['payment', 'session_id', 'order_id', 'venueId']) clean.delete(k);
    const rest = clean.toString();
    targetRef.current = location.pathname + (rest ? `?${rest}` : '');

    if (payment === 'cancelled') {
      if (orderId) promotionApi.cancel(orderId).catch(() => undefined);
      setView({ kind: 'failure', type: 'cancelled' });
    } else if (payment === 'failed') {
      setView({ kind: 'failure', type: 'payment_failed' });
    } else if (sessionIdRef.current) {
      void verify(sessionIdRef.current);
    } else {
      setView({ kind: 'failure', type: 'not_found' });
    }
  });
  useEffect(() => handleReturn(location.search), [location.search]);

  // Superadmins go back to the business they bought for; the URL is cleaned either way.
  const venueParam = new URLSearchParams(location.search).get('venueId');
  useEffect(() => {
    if (handled.current === null || view.kind === 'none') return;
    if (!new URLSearchParams(location.search).get('payment')) return;
    if (view.kind === 'verifying' || session.status === 'loading') return;
    const target = isSuperadmin && venueParam ? `/admin/venue/${encodeURIComponent(venueParam)}` : targetRef.current;
    navigate(target, { replace: true });
  }, [view.kind, isSuperadmin, session.status, venueParam, location.search, navigate]);

  async function verify(sessionId: string) {
    for (let attempt = 1; attempt <= VERIFY_ATTEMPTS; attempt++) {
      setView({ kind: 'verifying', attempt, retrying: attempt > 1 });
      try {
        const result = await promotionApi.verify(sessionId);
        if (result.success) {
          setView({ kind: 'success', result });
          onPaidRef.current?.();
          return;
        }
        // The server says why (gone or moved, issue 26.2): its message is the dialog's text.
        if (result.refund) return setView({ kind: 'failure', type: 'refunded', message: result.message });
        if (result.status === 'paid') return setView({ kind: 'failure', type: 'other', message: result.message });
        if (result.status === 'failed') return setView({ kind: 'failure', type: 'payment_failed' });
        if (result.status === 'expired') return setView({ kind: 'failure', type: 'expired' });
        // Still open: the provider's webhook may be a moment behind the redirect.
        if (attempt === VERIFY_ATTEMPTS) return setView({ kind: 'failure', type: 'pending' });
      } catch (err) {
        const status = err instanceof ApiError ? err.status : -1;
        // An unknown session, or one of someone else's orders: to this buyer there is no such payment.
        if (status === 404 || status === 403) return setView({ kind: 'failure', type: 'not_found' });
        if (status !== 0) return setView({ kind: 'failure', type: 'other' });
        if (attempt === VERIFY_ATTEMPTS) {
          setView({ kind: 'failure', type: 'network_error' });
          return;
        }
      }
      await sleep(VERIFY_DELAY_MS);
    }
  }

  const close = () => setView({ kind: 'none' });

  return (
    <>
      <Dialog open={view.kind === 'verifying'} onClose={() => undefined} title="Verifierar betalning" size="sm">
        {view.kind === 'verifying' && (
          <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
            <span aria-hidden="true" className="h-8 w-8 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600" />
            <p>{view.retrying ? 'Försöker igen...' : 'Vänta medan vi bekräftar din betalning.'}</p>
            <p className="text-sm text-slate-600">
              Försök {view.attempt} av {VERIFY_ATTEMPTS}
            </p>
          </div>
        )}
      </Dialog>

      <Dialog open={view.kind === 'success'} onClose={close} title="Betalningen lyckades!">
        {view.kind === 'success' && (
          <div className="space-y-4">
            <p>{paidLine(view.result.promotions)}</p>
            {view.result.refund && <p className="rounded-lg bg-amber-50 p-3 text-amber-950">{view.result.message}</p>}
            {view.result.alreadyProcessed && (
              <p className="rounded-lg bg-sky-50 p-3 text-sky-950">Betalningen var redan registrerad – marknadsföringen är redan aktiv.</p>
            )}
            {view.result.promotions.length > 0 && (
              <ul className="list-inside list-disc text-slate-800">
                {view.result.promotions.map((p) => (
                  <li key={`${p.quizId}-${p.productType}-${p.startDate}`}>
                    {TIER_LABELS[p.productType]} {shortDate(p.startDate)}
                  </li>
                ))}
              </ul>
            )}
            <div className="flex justify-end">
              <Button onClick={close}>Klar</Button>
            </div>
          </div>
        )}
      </Dialog>

      <Dialog open={view.kind === 'failure'} onClose={close} title={view.kind === 'failure' ? FAILURE_TEXT[view.type].title : ''}>
        {view.kind === 'failure' && (
          <div className="space-y-4">
            <p>{view.message ?? FAILURE_TEXT[view.type].text}</p>
            <p className="text-sm text-slate-700">
              Behöver du hjälp? Kontakta{' '}
              <a className="font-semibold text-brand-700 underline" href={`mailto:${supportEmail}`}>
                {supportEmail}
              </a>
            </p>
            <div className="flex justify-end gap-3">
              {(view.type === 'payment_failed' || (RETRY_VERIFY.has(view.type) && sessionIdRef.current)) && (
                <Button
                  variant="secondary"
                  onClick={() => {
                    if (RETRY_VERIFY.has(view.type) && sessionIdRef.current) void verify(sessionIdRef.current);
                    else close();
                  }}
                >
                  Försök igen
                </Button>
              )}
              <Button onClick={close}>Klar</Button>
            </div>
          </div>
        )}
      </Dialog>
    </>
  );
}
