import { z } from 'zod';

/** GET /api/payments/verify?session_id=… (verify-payment): reads only our own state. */
export const VerifyQuerySchema = z.object({
  session_id: z.string({ error: 'Saknas' }).trim().min(1, 'Saknas').max(255, 'Ogiltigt sessions-id').describe('Sessions-id'),
});
/** POST /api/payments/cancel: the buyer came back with payment=cancelled; the session is expired at the provider. */
export const CancelBodySchema = z.object({
  orderId: z.string({ error: 'Saknas' }).trim().min(1, 'Saknas').max(100, 'Ogiltigt id').describe('Beställning'),
});

export type OrderStatus = 'open' | 'paid' | 'failed' | 'expired';

export interface VerifyResponse {
  success: boolean;
  status: OrderStatus;
  marketingType: 'recommended' | 'premium' | 'mixed' | null;
  isPremium: boolean;
  promotions: Array<{ quizId: string; productType: 'recommended' | 'premium'; startDate: string; endDate: string; amountPaid: number }>;
  /** 'already processed' when this order was verified before (the dialog then adds an 'already active' note). */
  message: string;
  alreadyProcessed: boolean;
}

export const VERIFY_MESSAGES = {
  paid: 'Betalningen är genomförd',
  alreadyProcessed: 'already processed',
  open: 'Betalning ej klar',
  failed: 'Betalningen misslyckades',
  expired: 'Betalningen avbröts eller gick ut',
} as const;
