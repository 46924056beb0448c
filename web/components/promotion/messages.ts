/**
 * The words of the payment return (issue 29.4): each outcome gets its own true message. Pure, so the
 * rules are unit-tested (messages.test.ts) and the dialog only picks the text.
 */
import { VERIFY_MESSAGES, type VerifyResponse } from '../../../worker/features/payments/contract';
import { TIER_LABELS, type Tier } from '../../../worker/features/promotion/contract';

const quizCount = (n: number) => `${n} quiz`;

/** The success line: what was bought, per tier, for one or many quizzes (a mixed order names both tiers). */
export function paidLine(promotions: VerifyResponse['promotions']): string {
  const byTier = new Map<Tier, Set<string>>();
  for (const p of promotions) {
    if (!byTier.has(p.productType)) byTier.set(p.productType, new Set());
    byTier.get(p.productType)!.add(p.quizId);
  }
  const quizzes = new Set(promotions.map((p) => p.quizId)).size;
  const tiers = (['premium', 'recommended'] as const).filter((t) => byTier.has(t));
  if (tiers.length === 1) {
    const tier = TIER_LABELS[tiers[0]!];
    return quizzes === 1
      ? `Ditt quiz är nu ${tier} och marknadsföringen är aktiv direkt.`
      : `Dina ${quizzes} quiz är nu ${tier} och marknadsföringen är aktiv direkt.`;
  }
  if (tiers.length === 0) return 'Marknadsföringen är aktiv direkt.';
  const parts = tiers.map((t) => `${quizCount(byTier.get(t)!.size)} som ${TIER_LABELS[t]}`);
  return `Marknadsföringen är aktiv direkt: ${parts.join(' och ')}.`;
}

export type FailureType = 'payment_failed' | 'network_error' | 'cancelled' | 'refunded' | 'expired' | 'pending' | 'not_found' | 'other';

export const FAILURE_TEXT: Record<FailureType, { title: string; text: string }> = {
  payment_failed: {
    title: 'Betalningen misslyckades',
    text: 'Betalningen kunde inte genomföras och inget har dragits. Kontrollera dina uppgifter eller välj ett annat betalsätt och försök igen.',
  },
  network_error: {
    title: 'Anslutningsproblem',
    text: 'Vi kunde inte nå servern för att bekräfta betalningen. Kontrollera din internetanslutning och försök igen.',
  },
  cancelled: {
    title: 'Betalningen avbröts',
    text: 'Du avbröt betalningen. Inget har dragits och marknadsföringen har inte aktiverats. Platsen är släppt så att du kan välja igen.',
  },
  // Paid, but what was bought no longer exists (issue 13.2): never shown as a success. The server's message is shown.
  refunded: {
    title: 'Köpet kunde inte genomföras',
    text: VERIFY_MESSAGES.refunded,
  },
  expired: {
    title: 'Betalningen gick ut',
    text: 'Betalningen slutfördes inte i tid eller avbröts, så inget har dragits och marknadsföringen har inte aktiverats. Välj datum och försök igen.',
  },
  pending: {
    title: 'Betalningen är inte bekräftad än',
    text: 'Vi har inte fått bekräftelsen på betalningen ännu. Det brukar ta någon minut – försök igen strax. Inget dras två gånger.',
  },
  not_found: {
    title: 'Betalningen hittades inte',
    text: 'Vi hittar ingen betalning som hör till den här länken, så inget har aktiverats. Har du betalat men ser inte marknadsföringen? Kontakta supporten.',
  },
  other: {
    title: 'Något gick fel',
    text: 'Vi kunde inte bekräfta betalningen just nu. Försök igen om en stund.',
  },
};

/** Outcomes where 'Försök igen' verifies again (the rest have nothing to retry here). */
export const RETRY_VERIFY: ReadonlySet<FailureType> = new Set(['network_error', 'pending', 'other']);
