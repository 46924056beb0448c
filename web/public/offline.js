// The offline page (issue 32, docs/features/pwa.md): the public pages this browser has stored (the service
// worker's page cache, newest first: issue 44.9), then "Mina bevakningar" and the quizzes added to the calendar,
// as this browser kept them (localStorage, web/pwa/saved.ts — never the service worker's cache). A plain
// static file, precached with /offline.html; every text goes in through textContent.
const TIME = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat('sv-SE', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });
const TODAY = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' });

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function item(label, url, extra) {
  const li = el('li');
  // A path of this site only: '/x', never '//host/…' (another site) or '/\host' (browsers read it as '//').
  const ownPath = typeof url === 'string' && /^\/(?![/\\])/.test(url);
  li.appendChild(ownPath ? el('a', label, { href: url }) : el('span', label));
  if (extra) li.appendChild(el('span', ` – ${extra}`));
  return li;
}

function section(title, id, items) {
  const s = el('section', '', { 'aria-labelledby': id });
  s.appendChild(el('h2', title, { id }));
  const ul = el('ul');
  for (const li of items) ul.appendChild(li);
  s.appendChild(ul);
  return s;
}

const follows = read('qk_offline_follows');
const calendar = read('qk_offline_calendar');
const today = TODAY.format(new Date());
const upcoming = (Array.isArray(calendar?.quizzes) ? calendar.quizzes : [])
  .filter((q) => typeof q?.date === 'string' && q.date >= today)
  .sort((a, b) => (a.date + a.time < b.date + b.time ? -1 : 1));
const followList = Array.isArray(follows?.follows) ? follows.follows : [];
const stamps = [follows?.savedAt, ...upcoming.map((q) => q.savedAt)].filter((s) => typeof s === 'string' && !Number.isNaN(Date.parse(s)));
const main = document.querySelector('main');

if (main && (followList.length > 0 || upcoming.length > 0)) {
  const newest = new Date(Math.max(...stamps.map((s) => Date.parse(s))));
  const note = stamps.length
    ? `Du är offline – visar sparad information från ${TIME.format(newest).replace(' kl. ', ' ')}`
    : 'Du är offline – visar sparad information';
  const status = el('p', note, { role: 'status', 'data-offline-note': '' });
  status.setAttribute('style', 'margin:0 0 1rem;padding:.5rem 1rem;background:#fef3c7;color:#78350f;border-radius:.5rem');
  main.prepend(status);
  if (followList.length > 0) {
    main.appendChild(
      section(
        'Mina bevakningar',
        'saved-follows',
        followList.map((f) =>
          item(
            String(f.label ?? ''),
            typeof f.url === 'string' ? f.url : null,
            [f.reminders ? 'påminnelser på' : '', f.push ? 'påminner i telefonen' : ''].filter(Boolean).join(', '),
          ),
        ),
      ),
    );
  }
  if (upcoming.length > 0) {
    main.appendChild(
      section(
        'I min kalender',
        'saved-calendar',
        upcoming.map((q) => item(`${DAY.format(new Date(`${q.date}T00:00:00Z`))} kl. ${q.time}: ${q.label}`, typeof q.url === 'string' ? q.url : null, '')),
      ),
    );
  }
}

/** The cache of visited public pages: PAGES_CACHE in web/pwa/policy.ts (policy.test.ts checks they agree). */
const PAGES_CACHE = 'qk-pages-v1';
const SITE_SUFFIX = /\s*[|–-]\s*Quizkväll\s*$/;

/** The stored pages with their titles, newest first; none when the browser has no Cache API here. */
async function visitedPages() {
  if (typeof caches === 'undefined' || !(await caches.has(PAGES_CACHE))) return [];
  const cache = await caches.open(PAGES_CACHE);
  const pages = [];
  for (const request of await cache.keys()) {
    const url = new URL(request.url);
    if (url.origin !== location.origin) continue;
    const res = await cache.match(request, { ignoreVary: true });
    if (!res) continue;
    const head = (await res.text()).match(/<title[^>]*>([\s\S]*?)<\/title>/i)?.[1] ?? '';
    // The title's entities decoded by the parser, never put into the page as HTML.
    const title = new DOMParser().parseFromString(`<title>${head}</title>`, 'text/html').title.replace(SITE_SUFFIX, '').trim();
    const at = Date.parse(res.headers.get('x-qk-cached-at') ?? '');
    pages.push({ path: url.pathname + url.search, title: title || url.pathname, at: Number.isNaN(at) ? 0 : at });
  }
  return pages.sort((a, b) => b.at - a.at);
}

visitedPages()
  .then((pages) => {
    const list = document.getElementById('visited-list');
    const box = document.getElementById('visited');
    if (!list || !box || pages.length === 0) return;
    for (const p of pages) list.appendChild(item(p.title, p.path, p.at ? `sparad ${TIME.format(new Date(p.at)).replace(' kl. ', ' ')}` : ''));
    box.hidden = false;
  })
  .catch(() => undefined);
