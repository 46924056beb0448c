// "Påminn mig i telefonen" on "Mina bevakningar" reached by its signed link, without an account (issue 32,
// docs/features/pwa.md). The page (worker/features/follows/pages.ts) is server-rendered and works without
// JavaScript; this file only adds push. It is a plain static file (script-src 'self', no build step), so it
// repeats the texts of web/pwa/push.ts (PUSH_TEXTS; test/unit/push-optin.test.ts keeps them equal).
//  - Each confirmed follow's hidden form (data-push-optin) is shown; its tap asks for the notification
//    permission (never before), subscribes this browser with our VAPID key and posts the subscription in the
//    form (action push-on) — the signed link in the page's URL is the authority, as for every action there.
//  - Where this browser cannot take push (no push API, no service worker, no push service), the button's place
//    says so (the page's hidden [data-push-unsupported] text, issue 44.2), never "Något gick fel".
//  - The list is kept in this browser (localStorage) for "Mina bevakningar" offline (/offline.html).
const TEXTS = {
  denied: 'Du har inte tillåtit aviseringar. Ändra det i webbläsarens inställningar för att få påminnelser.',
  unsupported: 'Din webbläsare kan inte visa påminnelser.',
  offline: 'Kunde inte nå Quizkväll. Kontrollera anslutningen och försök igen.',
};

const note = document.querySelector('[data-push-note]');
const say = (text) => {
  if (note) note.textContent = text;
};
const supported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

function keyBytes(base64url) {
  const bin = atob(
    base64url
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(base64url.length / 4) * 4, '='),
  );
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Thrown when our server could not be reached or refused the key: not the browser's fault. */
class ServerError extends Error {}

/** `work`, or a rejection after `ms` (a blocked service worker may never answer); as in web/pwa/push.ts. */
const within = (work, ms) => Promise.race([work, new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), ms))]);

async function subscribe() {
  let registration;
  try {
    registration = await within(
      (async () => {
        const r = (await navigator.serviceWorker.getRegistration('/')) ?? (await navigator.serviceWorker.register('/sw.js', { scope: '/' }));
        await navigator.serviceWorker.ready;
        return r;
      })(),
      10_000,
    );
  } catch {
    return null;
  }
  const res = await fetch('/api/follows/push-key', { credentials: 'omit' }).catch(() => null);
  if (!res?.ok) throw new ServerError();
  const { publicKey } = await res.json();
  try {
    const sub =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
    return sub.toJSON();
  } catch {
    // No push service (some browsers, private windows): the browser cannot take push.
    return null;
  }
}

/** The opt-in's place says that this browser cannot take push; the button goes. */
function unsupportedHere(form) {
  form.hidden = true;
  const text = form.nextElementSibling;
  if (text?.hasAttribute('data-push-unsupported')) text.hidden = false;
}

for (const form of document.querySelectorAll('form[data-push-optin]')) {
  if (!supported()) {
    unsupportedHere(form);
    continue;
  }
  form.hidden = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say('');
    try {
      // The permission is asked here, after the tap, never on load.
      if ((await Notification.requestPermission()) !== 'granted') return say(TEXTS.denied);
      const json = await subscribe();
      if (!json) return unsupportedHere(form);
      form.elements.namedItem('endpoint').value = json.endpoint ?? '';
      form.elements.namedItem('p256dh').value = json.keys?.p256dh ?? '';
      form.elements.namedItem('auth').value = json.keys?.auth ?? '';
      form.submit();
    } catch {
      say(TEXTS.offline);
    }
  });
}

// "Mina bevakningar" offline: the list as this page shows it, in the shape of web/pwa/saved.ts (SavedFollows),
// under the key the account page uses too; /offline.html shows it without a network.
try {
  const follows = [...document.querySelectorAll('li[data-follow-label]')].map((li) => ({
    label: li.dataset.followLabel ?? '',
    url: li.dataset.followUrl || null,
    reminders: li.dataset.followReminders === '1',
    push: li.dataset.followPush === '1',
  }));
  localStorage.setItem('qk_offline_follows', JSON.stringify({ savedAt: new Date().toISOString(), follows }));
} catch {
  // storage blocked: nothing kept
}
