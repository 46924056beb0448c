/**
 * The local checkout (development and test only; mounted under /dev, which app.ts hides in production).
 * Used when STRIPE_SECRET_KEY is empty: 'Betala' builds a checkout.session.completed event, signs it
 * with the Stripe library's own test signer and posts it to our real webhook route — the same code
 * path as production — then returns to the success URL. 'Avbryt' does the same with
 * checkout.session.expired (as Stripe does when a session is ended) and returns with payment=cancelled.
 */
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../../context';
import { randomToken } from '../../lib/ids';
import { signEvent } from '../../ports/payments';
import { formatOre, returnPaths, TIER_LABELS, volumeDiscountLabel, type OrderItem } from '../promotion/contract';
import { orderById } from './queries';
import { receiveWebhook } from './service';

type Ctx = Context<AppEnv>;

async function loadOrder(c: Ctx) {
  return orderById(c.var.db, c.req.param('id') ?? '');
}

/**
 * Signs the event as Stripe would and hands it to the same webhook service the route uses
 * (signature verification included), so the local checkout exercises the production code path.
 */
async function deliver(c: Ctx, type: string, order: { id: string; stripeSessionId: string | null; amountTotal: number }, paymentStatus: string) {
  const payload = JSON.stringify({
    id: `evt_local_${randomToken(12)}`,
    object: 'event',
    type,
    created: Math.floor(c.var.clock.now().getTime() / 1000),
    data: {
      object: {
        id: order.stripeSessionId,
        object: 'checkout.session',
        client_reference_id: order.id,
        metadata: { orderId: order.id },
        payment_status: paymentStatus,
        status: type === 'checkout.session.expired' ? 'expired' : 'complete',
        amount_total: order.amountTotal,
        currency: 'sek',
      },
    },
  });
  const signature = await signEvent(payload, c.var.config.stripe.webhookSecret);
  await receiveWebhook(c.var.deps, { rawBody: payload, signature });
}

export const devCheckoutRoutes = new Hono<AppEnv>()
  .get('/:id', async (c) => {
    const order = await loadOrder(c);
    if (!order)
      return c.html(
        html`<!doctype html><html lang="sv"><head><meta charset="utf-8"><title>Betalning hittades inte</title></head><body><main><h1>Betalningen hittades inte</h1><p><a href="/admin">Tillbaka</a></p></main></body></html>`,
        404,
      );
    const items = JSON.parse(order.items) as OrderItem[];
    const open = order.status === 'open';
    const subtotal = items.reduce((sum, it) => sum + (it.listAmount ?? it.amount), 0);
    const discount = subtotal - order.amountTotal;
    return c.html(html`<!doctype html><html lang="sv"><head><meta charset="utf-8"><title>Lokal betalning – Quizkväll</title>
      <meta name="viewport" content="width=device-width,initial-scale=1"></head>
      <body style="font-family:system-ui;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#111">
      <main>
      <h1>Lokal betalning (utveckling)</h1>
      <p>Ingen Stripe-nyckel är inställd, så betalningen simuleras här. 'Betala' skickar en signerad händelse till den riktiga webhooken.</p>
      <table style="width:100%;border-collapse:collapse">
        <thead><tr><th scope="col" style="text-align:left">Datum</th><th scope="col" style="text-align:left">Typ</th><th scope="col" style="text-align:right">Belopp</th></tr></thead>
        <tbody>${items.map((it) => html`<tr><td>${it.date}</td><td>${TIER_LABELS[it.tier]}${it.weeks ? ` (${it.weeks} v)` : ''}</td><td style="text-align:right">${formatOre(it.listAmount ?? it.amount)}</td></tr>`)}
        ${discount > 0 ? html`<tr><td></td><td>${volumeDiscountLabel()}</td><td style="text-align:right">${formatOre(-discount)}</td></tr>` : ''}</tbody>
      </table>
      <p><strong>Totalt: ${formatOre(order.amountTotal)}</strong></p>
      ${
        open
          ? html`<form method="post" action="/dev/checkout/${order.id}/pay" style="display:inline"><button type="submit" style="font-size:1.1rem;padding:.5rem 1.5rem;background:#166534;color:#fff;border:0;border-radius:6px">Betala</button></form>
          <form method="post" action="/dev/checkout/${order.id}/cancel" style="display:inline;margin-left:1rem"><button type="submit" style="font-size:1.1rem;padding:.5rem 1.5rem">Avbryt</button></form>`
          : html`<p>Beställningen är redan ${order.status === 'paid' ? 'betald' : 'avslutad'}.</p><p><a href="/admin">Tillbaka till Min sida</a></p>`
      }
      </main></body></html>`);
  })
  .post('/:id/pay', async (c) => {
    const order = await loadOrder(c);
    if (!order) return c.text('Betalningen hittades inte', 404);
    if (order.status === 'open') await deliver(c, 'checkout.session.completed', order, 'paid');
    return c.redirect(returnPaths(order.venueId ?? '', order.id, order.stripeSessionId ?? '').success, 303);
  })
  .post('/:id/cancel', async (c) => {
    const order = await loadOrder(c);
    if (!order) return c.text('Betalningen hittades inte', 404);
    if (order.status === 'open') await deliver(c, 'checkout.session.expired', order, 'unpaid');
    return c.redirect(returnPaths(order.venueId ?? '', order.id, order.stripeSessionId ?? '').cancel, 303);
  });
