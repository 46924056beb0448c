/**
 * Mailer port. Every mail is written to the mail_outbox table (the local stand-in, shown at /dev/mail
 * when APP_ENV=development); when MAIL_API_KEY is set it is also sent through the provider (Resend's
 * HTTP API). Templates live beside each feature (mail.ts); texts are Swedish.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import { newId } from '../lib/ids';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function createMailer(db: Db, opts: { apiKey: string | null; from: string; fetcher?: typeof fetch }): Mailer {
  return {
    async send(message) {
      const id = newId();
      await db.insert(mailOutbox).values({ id, toEmail: message.to, subject: message.subject, text: message.text, html: message.html ?? null, status: opts.apiKey ? 'pending' : 'sent' });
      if (!opts.apiKey) return;
      const res = await (opts.fetcher ?? fetch)('https://api.resend.com/emails', {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: opts.from, to: [message.to], subject: message.subject, text: message.text, html: message.html }),
      });
      await db
        .update(mailOutbox)
        .set({ status: res.ok ? 'sent' : 'failed', sentAt: res.ok ? new Date().toISOString() : null })
        .where(eq(mailOutbox.id, id));
      if (!res.ok) console.error(`mail provider answered ${res.status}`);
    },
  };
}

/** Pulls the links out of a mail text, for /dev/mail.json (so tests and newcomers can click them). */
export function extractLinks(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]);
}
