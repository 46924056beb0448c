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

/** How long this browser may take to give us its service worker before it counts as one that cannot push. */
const WORKER_WAIT_MS = 10_000;

/** `work`, or a rejection once `ms` have passed (a service worker that is blocked may never answer). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  return Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer')), ms))]);
}

/**
 * Asks for permission (this tap only), subscribes this browser and stores it against `followId`. A browser that
 * turns out not to take push — its service worker or push service refuses — answers 'unsupported' (issue 44.2: it
 * used to surface as "Något gick fel"); only our own API's refusals are thrown (ApiError, with their message).
 */
export async function enablePush(followId: string): Promise<EnableResult> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  let registration: ServiceWorkerRegistration;
  try {
    registration = await within(
      (async () => {
        const r = (await navigator.serviceWorker.getRegistration('/')) ?? (await navigator.serviceWorker.register('/sw.js', { scope: '/' }));
        await navigator.serviceWorker.ready;
        return r;
      })(),
      WORKER_WAIT_MS,
    );
  } catch {
    return 'unsupported';
  }
  const { publicKey } = await api<{ publicKey: string }>('/api/follows/push-key');
  let subscription: PushSubscription;
  try {
    subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  } catch {
    return 'unsupported';
  }
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
  /** Said in the button's place (issue 44.2); web/public/push-optin.js and the signed page repeat it. */
  unsupported: 'Din webbläsare kan inte visa påminnelser.',
} as const;
