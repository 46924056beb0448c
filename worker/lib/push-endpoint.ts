/**
 * Which push subscription endpoints we store and send to (issue 42.3, docs/features/pwa.md): only the browsers'
 * own push services, over https on the default port. A browser's `PushSubscription.endpoint` always points at one
 * of them; anything else (another host, a port, http, an IP literal, credentials in the URL) would make our queue
 * consumer fetch a URL of a stranger's choosing. Checked twice: by the subscription's contract (nothing stored)
 * and by the push port before any fetch. No zod, no imports: the contract (shared with web) and the port use it.
 */

/** The browsers' push services; a hostname matches one exactly or as a subdomain of it. */
export const PUSH_SERVICE_HOSTS = [
  // Chrome, Edge on Android, Opera, Samsung Internet, Brave (Firebase Cloud Messaging; android.* is the legacy host).
  'fcm.googleapis.com',
  'android.googleapis.com',
  // Firefox (updates.push.services.mozilla.com and its regional hosts).
  'push.services.mozilla.com',
  // Edge on Windows (WNS: *.notify.windows.com).
  'notify.windows.com',
  // Safari (web.push.apple.com).
  'push.apple.com',
] as const;

/** True when `endpoint` is an https URL on a browser's push service, default port, no user or password. */
export function isPushServiceEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  // URL drops the default port (":443" becomes ""), and lower-cases the hostname.
  if (url.protocol !== 'https:' || url.port !== '' || url.username !== '' || url.password !== '') return false;
  const host = url.hostname;
  return PUSH_SERVICE_HOSTS.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}
