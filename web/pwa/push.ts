/**
 * "Påminn mig i telefonen" (issue 32): the browser side of push reminders. The notification permission is
 * asked only inside `enablePush` — called from that button's tap, never on load. The subscription is made
 * with our VAPID public key (GET /api/follows/push-key) and stored against the follow (PUT …/push).
 */
import { api } from '../lib/api';

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const bin = atob(
    base64url
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(base64url.length / 4) * 4, '='),
  );
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

export type EnableResult = 'on' | 'denied' | 'unsupported';

/** Asks for permission (this tap only), subscribes this browser and stores it against `followId`. */
export async function enablePush(followId: string): Promise<EnableResult> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const registration = (await navigator.serviceWorker.getRegistration('/')) ?? (await navigator.serviceWorker.register('/sw.js', { scope: '/' }));
  await navigator.serviceWorker.ready;
  const { publicKey } = await api<{ publicKey: string }>('/api/follows/push-key');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = subscription.toJSON();
  await api(`/api/follows/${encodeURIComponent(followId)}/push`, { method: 'PUT', body: { endpoint: json.endpoint, keys: json.keys } });
  return 'on';
}

/** What "Påminn mig i telefonen" answers: its result, said for the kind of follow that was switched on. */
export function pushResultText(result: EnableResult, kind: 'place' | 'search'): string {
  return result === 'on' && kind === 'search' ? PUSH_TEXTS.onSearch : PUSH_TEXTS[result];
}

/** "Sluta påminna i telefonen": removes the follow's push subscriptions on the server. */
export async function disablePush(followId: string): Promise<void> {
  await api(`/api/follows/${encodeURIComponent(followId)}/push`, { method: 'DELETE' });
}

export const PUSH_TEXTS = {
  enable: 'Påminn mig i telefonen',
  disable: 'Sluta påminna i telefonen',
  on: 'Klart! Vi påminner dig i telefonen på quizdagar.',
  /** A followed search has no quiz days of its own: its pushes are the new quizzes of the Monday digest. */
  onSearch: 'Klart! Vi meddelar dig i telefonen när det kommer nya quiz som passar sökningen.',
  denied: 'Du har inte tillåtit aviseringar. Ändra det i webbläsarens inställningar för att få påminnelser.',
  unsupported: 'Den här webbläsaren kan inte ta emot påminnelser. Lägg till Quizkväll på hemskärmen och försök igen.',
} as const;
