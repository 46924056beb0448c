import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../../context';
import { extractLinks } from '../../ports/mailer';
import { newestOutboxMails } from './queries';

/**
 * Development-only routes (mounted only when APP_ENV is development or test): the mail outbox.
 * The local checkout page lives in the payments feature.
 */
export const devRoutes = new Hono<AppEnv>()
  .get('/mail.json', async (c) => {
    const rows = await newestOutboxMails(c.var.db, 100);
    return c.json(
      rows.map((m) => ({
        id: m.id,
        to: m.toEmail,
        subject: m.subject,
        text: m.text,
        links: extractLinks(m.text),
        headers: m.headers ? (JSON.parse(m.headers) as Record<string, string>) : {},
        sendKey: m.sendKey,
        createdAt: m.createdAt,
      })),
    );
  })
  .get('/mail', async (c) => {
    const rows = await newestOutboxMails(c.var.db, 100);
    return c.html(html`<!doctype html><html lang="sv"><head><meta charset="utf-8"><title>Utkorg (utveckling)</title>
      <meta name="viewport" content="width=device-width,initial-scale=1"></head>
      <body style="font-family:system-ui;max-width:48rem;margin:2rem auto;padding:0 1rem">
      <h1>Utkorg – skickad e-post (endast utveckling)</h1>
      ${rows.length === 0 ? html`<p>Ingen e-post har skickats ännu.</p>` : ''}
      ${rows.map(
        (m) => html`<article style="border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0">
          <h2 style="font-size:1.1rem;margin:0">${m.subject}</h2>
          <p style="color:#555;margin:.25rem 0">Till ${m.toEmail} · ${m.createdAt}</p>
          <pre style="white-space:pre-wrap">${m.text}</pre>
          <ul>${extractLinks(m.text).map((l) => html`<li><a href="${l}">${l}</a></li>`)}</ul>
        </article>`,
      )}</body></html>`);
  });
