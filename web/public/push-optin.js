// "Påminn mig i telefonen" on "Mina bevakningar" reached by its signed link, without an account (issue 32,
// docs/features/pwa.md). The page (worker/features/follows/pages.ts) is server-rendered and works without
// JavaScript; this file only adds push. It is a plain static file (script-src 'self', no build step), so it
// repeats the texts of web/pwa/push.ts (PUSH_TEXTS; test/unit/push-optin.test.ts keeps them equal).
//  - Each confirmed follow's hidden form (data-push-optin) is shown; its tap asks for the notification
//    permission (never before), subscribes this browser with our VAPID key and posts the subscription in the
//    form (action push-on) — the signed link in the page's URL is the authority, as for every action there.
//  - The list is kept in this browser (localStorage) for "Mina bevakningar" offline (/offline.html).
const TEXTS = {
  denied: 'Du har inte tillåtit aviseringar. Ändra det i webbläsarens inställningar för att få påminnelser.',
  unsupported: 'Den här webbläsaren kan inte ta emot påminnelser. Lägg till Quizkväll på hemskärmen och försök igen.',
  failed: 'Något gick fel. Försök igen.',
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

async function subscribe() {
  const registration = (await navigator.serviceWorker.getRegistration('/')) ?? (await navigator.serviceWorker.register('/sw.js', { scope: '/' }));
  await navigator.serviceWorker.ready;
  const res = await fetch('/api/follows/push-key', { credentials: 'omit' });
  if (!res.ok) throw new Error(`push-key ${res.status}`);
  const { publicKey } = await res.json();
  const sub =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  return sub.toJSON();
}

for (const form of document.querySelectorAll('form[data-push-optin]')) {
  form.hidden = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say('');
    if (!supported()) return say(TEXTS.unsupported);
    try {
      // The permission is asked here, after the tap, never on load.
      if ((await Notification.requestPermission()) !== 'granted') return say(TEXTS.denied);
      const json = await subscribe();
      form.elements.namedItem('endpoint').value = json.endpoint ?? '';
      form.elements.namedItem('p256dh').value = json.keys?.p256dh ?? '';
      form.elements.namedItem('auth').value = json.keys?.auth ?? '';
      form.submit();
    } catch {
      say(TEXTS.failed);
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
