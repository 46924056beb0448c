import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema';

/** GET /api/payments/verify?session_id=… (verify-payment): reads only our own state. */
export const VerifyQuerySchema = lazySchema(() =>
  z.object({
    session_id: z.string({ error: 'Saknas' }).trim().min(1, 'Saknas').max(255, 'Ogiltigt sessions-id').describe('Sessions-id'),
  }),
);
/** POST /api/payments/cancel: the buyer came back with payment=cancelled; the session is expired at the provider. */
export const CancelBodySchema = lazySchema(() =>
  z.object({
    orderId: z.string({ error: 'Saknas' }).trim().min(1, 'Saknas').max(100, 'Ogiltigt id').describe('Beställning'),
  }),
);

export type OrderStatus = 'open' | 'paid' | 'failed' | 'expired';

/**
 * payment_events holds Stripe's webhook events AND, under this type (id `verify:{order}`), the buyer's own
 * first return check (GET /api/payments/verify). A reader about Stripe's events leaves these out; the event
 * id lookup (`eventSeen`) keeps them, since they share the primary key.
 */
export const VERIFY_EVENT_TYPE = 'verify';

export interface VerifyResponse {
  success: boolean;
  status: OrderStatus;
  marketingType: 'recommended' | 'premium' | 'mixed' | null;
  isPremium: boolean;
  promotions: Array<{ quizId: string; productType: 'recommended' | 'premium'; startDate: string; endDate: string; amountPaid: number }>;
  /** 'already processed' when this order was verified before (the dialog then adds an 'already active' note). */
  message: string;
  alreadyProcessed: boolean;
  /** Money that could not be delivered and goes back to the buyer (öre), e.g. the quiz was deleted. */
  refund?: { amount: number; status: RefundStatus } | null;
}

export type RefundStatus = 'pending' | 'refunded' | 'needs_manual';
export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  pending: 'Väntar',
  refunded: 'Återbetald',
  needs_manual: 'Återbetala manuellt',
};
export const REFUND_REASON_LABELS = {
  items_gone: 'Quizet togs bort innan betalningen kom',
  items_changed: 'Quizet flyttades innan betalningen kom',
  order_closed: 'Betald efter att reservationen hade gått ut',
} as const;

/** GET /api/payments/refunds (superadmin): the 'Att återbetala' list. */
export interface RefundListResponse {
  refunds: Array<{
    id: string;
    orderId: string;
    /** öre */
    amount: number;
    reason: keyof typeof REFUND_REASON_LABELS;
    status: RefundStatus;
    providerRefundId: string | null;
    error: string | null;
    createdAt: string;
    updatedAt: string;
    buyerEmail: string | null;
    venueName: string | null;
    stripeSessionId: string | null;
  }>;
}
/** POST /api/payments/refunds/:id/refunded */
export const RefundIdParamSchema = lazySchema(() =>
  z.object({
    id: z.string({ error: 'Saknas' }).trim().min(1, 'Saknas').max(100, 'Ogiltigt id').describe('Återbetalning'),
  }),
);

export const VERIFY_MESSAGES = {
  paid: 'Betalningen är genomförd',
  alreadyProcessed: 'already processed',
  open: 'Betalning ej klar',
  undelivered: 'Betalningen är registrerad, men marknadsföringen kunde inte visas. Kontakta supporten så hjälper vi dig.',
  failed: 'Betalningen misslyckades',
  expired: 'Betalningen avbröts eller gick ut',
  refunded: 'Quizet du betalade för finns inte längre, så köpet kunde inte genomföras. Pengarna betalas tillbaka till dig.',
  refundedChanged:
    'Quizet du betalade för har flyttats till ett annat datum eller en annan ort, så köpet kunde inte genomföras. Pengarna betalas tillbaka till dig.',
  partlyRefunded: (amount: string) => `Betalningen är genomförd, men ett eller flera quiz fanns inte längre. För dem betalas ${amount} tillbaka till dig.`,
  partlyRefundedChanged: (amount: string) =>
    `Betalningen är genomförd, men ett eller flera quiz har flyttats eller tagits bort. För dem betalas ${amount} tillbaka till dig.`,
} as const;
