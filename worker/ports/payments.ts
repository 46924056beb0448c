/**
 * Payments port (ARCHITECTURE.md "Payments", "Local stand-ins, same code paths").
 *
 * - `createStripePayments`: the real provider through the Stripe library with its fetch HTTP client
 *   (workerd has no Node http). Outbound calls go through `fetchFn`, so tests pass a strict fake.
 * - `createLocalPayments`: used when STRIPE_SECRET_KEY is empty. Its "checkout" is our own page
 *   `/dev/checkout/{orderId}`, whose 'Betala' posts a checkout.session.completed event signed by the
 *   Stripe library's own test signer to the real webhook route.
 *
 * Webhook verification is the same for both: Stripe's constructEventAsync with the SubtleCrypto
 * provider (the synchronous variant throws in workerd).
 */
import type Stripe from 'stripe';
import { DEV_WEBHOOK_SECRET, type Config } from '../env';
import { loadStripeSdk } from '../lazy';

/**
 * The Stripe SDK (~250 KB minified) is not part of the Worker's main module: it is a separately
 * uploaded lazy module (worker/lazy/stripe.bundle.js) loaded on first use — only checkout, refunds,
 * the webhook and the local checkout's signer need it (README "Speed at scale", lazy modules). The
 * loaded module is kept per isolate — the value, never a promise another request would await
 * (worker/lib/version-memo.ts); callers that arrive while it loads each ask import(), which the module
 * registry answers once. A failed load is retried on the next call.
 */
let stripeModule: typeof Stripe | undefined;
export async function loadStripe(): Promise<typeof Stripe> {
  if (stripeModule) return stripeModule;
  const m = await loadStripeSdk();
  stripeModule = m.default;
  return stripeModule;
}

let cryptoProvider: ReturnType<typeof Stripe.createSubtleCryptoProvider> | undefined;
async function stripeCrypto() {
  const StripeLib = await loadStripe();
  cryptoProvider ??= StripeLib.createSubtleCryptoProvider();
  return { StripeLib, cryptoProvider };
}

export interface CheckoutLineItem {
  /** Shown on the provider's checkout page, e.g. "Premium Utvald – 2026-11-28". */
  name: string;
  /** öre */
  amount: number;
}

export interface CreateCheckoutInput {
  orderId: string;
  lineItems: CheckoutLineItem[];
  /** A discount on the whole order (öre, > 0), shown as its own line, e.g. the volume discount. */
  discount?: { name: string; amount: number };
  /** Absolute URLs; successUrl contains the literal {CHECKOUT_SESSION_ID}. */
  successUrl: string;
  cancelUrl: string;
  /** Epoch seconds; Stripe requires 30 minutes to 24 hours ahead. */
  expiresAt: number;
  customerEmail?: string;
  /** Makes a retried create return the same session instead of a second one. */
  idempotencyKey: string;
}

export interface CheckoutSessionRef {
  id: string;
  /** Where to send the buyer (absolute for Stripe, same-origin path for the local checkout). */
  url: string;
}

/** The part of a checkout.session event we use. */
export interface PaymentEvent {
  id: string;
  type: string;
  session: {
    id: string;
    orderId: string | null;
    paymentStatus: string | null;
    amountTotal: number | null;
    /** The PaymentIntent of a paid session (what a refund refers to); null for the local checkout. */
    paymentIntentId: string | null;
  } | null;
}

export interface RefundInput {
  /** Idempotency: one refund per order. */
  orderId: string;
  paymentIntentId: string | null;
  sessionId: string | null;
  /** öre */
  amount: number;
}

export interface PaymentsPort {
  readonly kind: 'stripe' | 'local';
  /** Unit amounts (öre) of the given Price ids. Throws when they cannot be read. */
  getPriceAmounts(priceIds: string[]): Promise<Record<string, number>>;
  createCheckoutSession(input: CreateCheckoutInput): Promise<CheckoutSessionRef>;
  /** Verifies the Stripe-Signature header over the raw body; throws on a bad signature. */
  verifyWebhook(rawBody: string, signature: string): Promise<PaymentEvent>;
  /** Ends an open session so it can no longer be paid; the provider then sends checkout.session.expired. */
  expireSession(sessionId: string): Promise<void>;
  /** Refunds (part of) a paid session; returns the provider's refund id. Throws when it cannot. */
  refund(input: RefundInput): Promise<{ id: string }>;
}

/** Thrown when a checkout is asked of a production Worker without STRIPE_SECRET_KEY; the service answers 503. */
export class PaymentsNotConfiguredError extends Error {
  constructor() {
    super('STRIPE_SECRET_KEY is not set: payments are not configured');
    this.name = 'PaymentsNotConfiguredError';
  }
}

/** Missing configuration is logged once per isolate, not on every request. */
const loggedOnce = new Set<string>();
function logOnce(key: string, message: string) {
  if (loggedOnce.has(key)) return;
  loggedOnce.add(key);
  console.error(message);
}

/** Thrown by verifyWebhook; the route answers 400. */
export class WebhookSignatureError extends Error {}

async function verifyWith(rawBody: string, signature: string, secret: string): Promise<PaymentEvent> {
  const { StripeLib, cryptoProvider } = await stripeCrypto();
  let event: Stripe.Event;
  try {
    event = await StripeLib.webhooks.constructEventAsync(rawBody, signature, secret, undefined, cryptoProvider);
  } catch (err) {
    throw new WebhookSignatureError(err instanceof Error ? err.message : 'bad signature');
  }
  return toPaymentEvent(event);
}

function toPaymentEvent(event: { id: string; type: string; data: { object: unknown } }): PaymentEvent {
  const obj = event.data?.object as Record<string, unknown> | undefined;
  const isSession = obj && obj.object === 'checkout.session';
  const metadata = (obj?.metadata ?? {}) as Record<string, string>;
  return {
    id: event.id,
    type: event.type,
    session: isSession
      ? {
          id: String(obj.id),
          orderId: metadata.orderId || (obj.client_reference_id as string | null) || null,
          paymentStatus: (obj.payment_status as string | null) ?? null,
          amountTotal: (obj.amount_total as number | null) ?? null,
          paymentIntentId: typeof obj.payment_intent === 'string' ? obj.payment_intent : ((obj.payment_intent as { id?: string } | null)?.id ?? null),
        }
      : null,
  };
}

export function createStripePayments(opts: { secretKey: string; webhookSecret: string; fetchFn?: typeof fetch }): PaymentsPort {
  let client: Promise<{ stripe: Stripe; StripeLib: typeof Stripe }> | undefined;
  const sdk = () =>
    (client ??= loadStripe().then((StripeLib) => ({
      StripeLib,
      stripe: new StripeLib(opts.secretKey, {
        httpClient: StripeLib.createFetchHttpClient(opts.fetchFn),
        maxNetworkRetries: 1,
        timeout: 8000,
      }),
    })));
  return {
    kind: 'stripe',
    async getPriceAmounts(priceIds) {
      const { stripe } = await sdk();
      const out: Record<string, number> = {};
      for (const id of priceIds) {
        const price = await stripe.prices.retrieve(id);
        if (typeof price.unit_amount !== 'number' || price.currency !== 'sek') throw new Error(`price ${id} has no SEK unit amount`);
        out[id] = price.unit_amount;
      }
      return out;
    },
    async createCheckoutSession(input) {
      const { stripe } = await sdk();
      // A discount is a one-off coupon for exactly this order: Checkout shows it as its own line.
      const coupon = input.discount
        ? await stripe.coupons.create(
            { amount_off: input.discount.amount, currency: 'sek', duration: 'once', max_redemptions: 1, name: input.discount.name },
            { idempotencyKey: `${input.idempotencyKey}-discount` },
          )
        : null;
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          // No payment_method_types: Stripe's automatic payment methods offer card plus whatever the
          // account enables (Swish, Apple Pay, Google Pay) — spec 02 §1.
          line_items: input.lineItems.map((li) => ({
            quantity: 1,
            price_data: { currency: 'sek', unit_amount: li.amount, product_data: { name: li.name } },
          })),
          client_reference_id: input.orderId,
          metadata: { orderId: input.orderId },
          payment_intent_data: { metadata: { orderId: input.orderId } },
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: input.expiresAt,
          locale: 'sv',
          ...(coupon ? { discounts: [{ coupon: coupon.id }] } : {}),
          ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new Error('Stripe returned a session without url');
      return { id: session.id, url: session.url };
    },
    async expireSession(sessionId) {
      const { stripe, StripeLib } = await sdk();
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch (err) {
        // Already completed or expired: nothing to end.
        if (!(err instanceof StripeLib.errors.StripeInvalidRequestError)) throw err;
      }
    },
    async refund(input) {
      const { stripe } = await sdk();
      let paymentIntent = input.paymentIntentId;
      if (!paymentIntent && input.sessionId) {
        const session = await stripe.checkout.sessions.retrieve(input.sessionId);
        paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
      }
      if (!paymentIntent) throw new Error('no payment intent to refund');
      const refund = await stripe.refunds.create(
        { payment_intent: paymentIntent, amount: input.amount, metadata: { orderId: input.orderId } },
        { idempotencyKey: `refund-${input.orderId}` },
      );
      return { id: refund.id };
    },
    verifyWebhook: (rawBody, signature) => verifyWith(rawBody, signature, opts.webhookSecret),
  };
}

/** Refunds made by the local stand-in in this isolate (nothing to send anywhere; tests and /dev read it). */
export const localRefunds: Array<RefundInput & { id: string }> = [];

/** The local stand-in: no network; the checkout is our /dev/checkout page. */
export function createLocalPayments(opts: { webhookSecret: string }): PaymentsPort {
  return {
    kind: 'local',
    async getPriceAmounts() {
      throw new Error('no Stripe key: local checkout uses the fallback prices');
    },
    async createCheckoutSession(input) {
      return { id: localSessionId(input.orderId), url: `/dev/checkout/${input.orderId}` };
    },
    // The local checkout page's 'Avbryt' itself posts the signed checkout.session.expired event.
    async expireSession() {},
    async refund(input) {
      const id = `re_local_${input.orderId}`;
      if (!localRefunds.some((r) => r.id === id)) localRefunds.push({ ...input, id });
      return { id };
    },
    verifyWebhook: (rawBody, signature) => verifyWith(rawBody, signature, opts.webhookSecret),
  };
}

export const localSessionId = (orderId: string) => `cs_local_${orderId}`;

/** Picks the port from configuration: Stripe when a secret key is set, otherwise the local checkout. */
export function createPayments(config: Config, fetchFn?: typeof fetch): PaymentsPort {
  const port = config.stripe.secretKey
    ? createStripePayments({ secretKey: config.stripe.secretKey, webhookSecret: config.stripe.webhookSecret, fetchFn })
    : createLocalPayments({ webhookSecret: config.stripe.webhookSecret });
  if (config.appEnv !== 'production') return port;
  // Production never uses the local checkout (/dev does not exist there) nor the published dev secret.
  return {
    ...port,
    async createCheckoutSession(input) {
      if (!config.stripe.secretKey) {
        logOnce('stripe-key', 'STRIPE_SECRET_KEY is not set: checkout refused with 503');
        throw new PaymentsNotConfiguredError();
      }
      return port.createCheckoutSession(input);
    },
    async refund(input) {
      if (!config.stripe.secretKey) throw new PaymentsNotConfiguredError();
      return port.refund(input);
    },
    async verifyWebhook(rawBody, signature) {
      if (config.stripe.webhookSecret === DEV_WEBHOOK_SECRET) {
        logOnce('webhook-secret', 'STRIPE_WEBHOOK_SECRET is not set: webhook refused');
        throw new WebhookSignatureError('webhook secret not configured');
      }
      return port.verifyWebhook(rawBody, signature);
    },
  };
}

/**
 * Signs an event payload exactly as Stripe would (the library's own test signer), for the local
 * checkout and for tests.
 */
export async function signEvent(payload: string, secret: string, timestamp?: number): Promise<string> {
  const { StripeLib, cryptoProvider } = await stripeCrypto();
  return StripeLib.webhooks.generateTestHeaderStringAsync({ payload, secret, cryptoProvider, ...(timestamp ? { timestamp } : {}) });
}
