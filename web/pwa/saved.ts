/**
 * "Mina bevakningar" and the quizzes a visitor added to their calendar, kept in this browser for offline use
 * (issue 32, docs/features/pwa.md). Personal lists never go into the service worker's cache (its rules: public
 * pages and the shell only); they live in this browser's localStorage under `qk_` keys, which logout clears
 * (web/lib/session.ts), and /offline.html (web/public/offline.js) shows them without a network.
 * web/public/offline.js and web/public/push-optin.js read and write the same keys and shapes.
 */
import type { SavedQuiz } from './saved-quiz';

export type { SavedQuiz } from './saved-quiz';

export const SAVED_FOLLOWS_KEY = 'qk_offline_follows';
export const SAVED_CALENDAR_KEY = 'qk_offline_calendar';
/** The newest this many calendar quizzes are kept. */
export const SAVED_CALENDAR_MAX = 50;

export interface SavedFollow {
  label: string;
  url: string | null;
  reminders: boolean;
  push: boolean;
}
export interface SavedFollows {
  /** When the list was read from the server (ISO instant): the offline note's {tid}. */
  savedAt: string;
  /** 'account': the signed-in user's list, forgotten when the session is gone (a copy from the signed link has none). */
  source?: 'account';
  follows: SavedFollow[];
}
export interface SavedCalendar {
  quizzes: SavedQuiz[];
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or blocked: offline copies are a convenience
  }
}

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/** Set by logout: a list read before it (a request still in flight) must not be kept after it. */
let accountCopiesClosed = false;

/** Logout: forget the account's list now, and refuse one that arrives later in this page's life. */
export function closeAccountCopies(): void {
  accountCopiesClosed = true;
  try {
    localStorage.removeItem(SAVED_FOLLOWS_KEY);
  } catch {
    // storage blocked: nothing was kept
  }
}

/** The signed-in user's list as the account page just read it. */
export function saveFollows(
  follows: ReadonlyArray<{ id: string; label: string; url: string | null; reminders: boolean }>,
  pushed: ReadonlySet<string>,
  now = new Date(),
): void {
  if (accountCopiesClosed) return;
  const saved: SavedFollows = {
    savedAt: now.toISOString(),
    source: 'account',
    follows: follows.map((f) => ({ label: f.label, url: f.url, reminders: f.reminders, push: pushed.has(f.id) })),
  };
  write(SAVED_FOLLOWS_KEY, saved);
}

export function savedFollows(): SavedFollows | null {
  return read<SavedFollows>(SAVED_FOLLOWS_KEY);
}

/**
 * The account's offline list, once its session is gone (expired, or ended elsewhere) — not only at "Logga ut":
 * the next person on a shared phone must not read it. A list kept from the signed link (no account) stays.
 */
export function forgetAccountCopies(): void {
  try {
    if (savedFollows()?.source === 'account') localStorage.removeItem(SAVED_FOLLOWS_KEY);
  } catch {
    // storage blocked: nothing was kept
  }
}

/** Adds (or refreshes) one quiz; keeps the newest SAVED_CALENDAR_MAX. */
export function rememberCalendarQuiz(quiz: SavedQuiz, now = new Date()): void {
  const list = (read<SavedCalendar>(SAVED_CALENDAR_KEY)?.quizzes ?? []).filter((q) => q.id !== quiz.id);
  list.push({ ...quiz, savedAt: now.toISOString() });
  write(SAVED_CALENDAR_KEY, { quizzes: list.slice(-SAVED_CALENDAR_MAX) } satisfies SavedCalendar);
}

export function savedCalendar(): SavedQuiz[] {
  return read<SavedCalendar>(SAVED_CALENDAR_KEY)?.quizzes ?? [];
}

/**
 * Clicks on "Lägg till i kalender"'s links (inside an element with data-saved-quiz) remember that quiz.
 * Installed by the lazy service worker chunk (web/pwa/register.ts), so the public first load carries none of it.
 */
export function rememberCalendarClicks(doc: Document = document): void {
  doc.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    const holder = link?.closest('[data-saved-quiz]');
    const raw = holder?.getAttribute('data-saved-quiz');
    if (!raw) return;
    try {
      const q = JSON.parse(raw) as SavedQuiz;
      if (typeof q.id === 'string' && typeof q.date === 'string') rememberCalendarQuiz(q);
    } catch {
      // a malformed attribute remembers nothing
    }
  });
}
