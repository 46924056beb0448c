import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUSH_TEXTS, pushResultText } from './push';
import {
  closeAccountCopies,
  forgetAccountCopies,
  rememberCalendarQuiz,
  SAVED_CALENDAR_KEY,
  SAVED_CALENDAR_MAX,
  SAVED_FOLLOWS_KEY,
  saveFollows,
  savedCalendar,
  savedFollows,
} from './saved';
import { savedQuizOf } from './saved-quiz';
import { isPublicPagePath, isSavedListPath } from './policy';

/** A Map-backed localStorage (the unit tests run in Node). */
function memoryStorage() {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, String(v)),
    removeItem: (k: string) => void m.delete(k),
    keys: () => [...m.keys()],
  };
}

describe('offline copies of "Mina bevakningar" and the calendar quizzes (issue 32)', () => {
  let storage: ReturnType<typeof memoryStorage>;
  beforeEach(() => {
    storage = memoryStorage();
    vi.stubGlobal('localStorage', storage);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('keeps them under qk_ keys (logout clears every qk_ key, web/lib/session.ts), never ids or addresses', () => {
    const at = new Date('2026-11-27T09:15:00Z');
    saveFollows([{ id: 'f1', label: 'Puben, Stockholm', url: '/quiz/stockholm/puben', reminders: true }], new Set(['f1']), at);
    expect(savedFollows()).toEqual({
      savedAt: at.toISOString(),
      source: 'account',
      follows: [{ label: 'Puben, Stockholm', url: '/quiz/stockholm/puben', reminders: true, push: true }],
    });
    expect(SAVED_FOLLOWS_KEY.startsWith('qk_') && SAVED_CALENDAR_KEY.startsWith('qk_')).toBe(true);
    expect(storage.getItem(SAVED_FOLLOWS_KEY)).not.toContain('f1');
  });

  it("the account's list is forgotten once its session is gone; a list kept from the signed link stays", () => {
    saveFollows([{ id: 'f1', label: 'Puben, Stockholm', url: null, reminders: true }], new Set());
    forgetAccountCopies();
    expect(savedFollows()).toBeNull();
    // web/public/push-optin.js (the signed /bevakningar page, no account) writes no source.
    storage.setItem(SAVED_FOLLOWS_KEY, JSON.stringify({ savedAt: '2026-11-27T09:15:00.000Z', follows: [] }));
    forgetAccountCopies();
    expect(savedFollows()).not.toBeNull();
  });

  it('after logout, a list that was still loading is not kept (this page never saves it again)', () => {
    saveFollows([{ id: 'f1', label: 'Puben, Stockholm', url: null, reminders: true }], new Set());
    closeAccountCopies();
    expect(savedFollows()).toBeNull();
    saveFollows([{ id: 'f1', label: 'Puben, Stockholm', url: null, reminders: true }], new Set());
    expect(savedFollows()).toBeNull();
  });

  it('a calendar quiz is remembered once (refreshed on repeat), the newest 50 kept', () => {
    const quiz = {
      id: 'q1',
      date: '2026-12-01',
      startTime: '19:30:00',
      title: 'Musikquiz',
      description: null,
      category: null,
      theme: null,
      quizmaster: null,
      teamSize: null,
      price: null,
      isCancelled: false,
      location: { name: 'Puben', address: 'Gatan 1', city: 'Stockholm', citySlug: 'stockholm', latitude: null, longitude: null },
      venue: { name: 'Puben AB', slug: 'puben' },
    };
    const saved = savedQuizOf(quiz);
    expect(saved).toEqual({ id: 'q1', date: '2026-12-01', time: '19:30', label: 'Puben, Stockholm – Musikquiz', url: '/quiz/stockholm/puben#quiz-q1' });
    rememberCalendarQuiz(saved, new Date('2026-11-27T10:00:00Z'));
    rememberCalendarQuiz(saved, new Date('2026-11-27T11:00:00Z'));
    expect(savedCalendar()).toEqual([{ ...saved, savedAt: '2026-11-27T11:00:00.000Z' }]);
    for (let i = 0; i < SAVED_CALENDAR_MAX + 5; i++) rememberCalendarQuiz({ ...saved, id: `x${i}` });
    const kept = savedCalendar();
    expect(kept).toHaveLength(SAVED_CALENDAR_MAX);
    expect(kept.at(-1)!.id).toBe(`x${SAVED_CALENDAR_MAX + 4}`);
  });

  it('the service worker never stores the list pages; it serves the offline page for them', () => {
    for (const p of ['/account', '/bevakningar']) {
      expect(isSavedListPath(p), p).toBe(true);
      expect(isPublicPagePath(p), p).toBe(false);
    }
    for (const p of ['/', '/quiz/stockholm', '/api/follows', '/bevakningar/avsluta', '/owner']) expect(isSavedListPath(p), p).toBe(false);
  });

  it('the static scripts use the same keys and texts as the app (web/public/push-optin.js, offline.js)', () => {
    const optin = readFileSync(new URL('../public/push-optin.js', import.meta.url), 'utf8');
    const offline = readFileSync(new URL('../public/offline.js', import.meta.url), 'utf8');
    expect(optin).toContain(`'${PUSH_TEXTS.denied}'`);
    expect(optin).toContain(`'${PUSH_TEXTS.unsupported}'`);
    // Issue 44.2: the same words where a browser cannot take push — the follow dialog and the signed page's placeholder.
    for (const file of ['../components/follows/FollowDialog.tsx', '../../worker/features/follows/pages.ts']) {
      expect(readFileSync(new URL(file, import.meta.url), 'utf8'), file).toContain(`'${PUSH_TEXTS.unsupported}'`);
    }
    expect(optin).toContain(`'${SAVED_FOLLOWS_KEY}'`);
    expect(offline).toContain(`'${SAVED_FOLLOWS_KEY}'`);
    expect(offline).toContain(`'${SAVED_CALENDAR_KEY}'`);
    expect(offline).toContain('Du är offline – visar sparad information från');
  });

  it('"Påminn mig i telefonen" answers for the kind of follow: a search is told of new quizzes, not quiz days', () => {
    expect(pushResultText('on', 'place')).toBe(PUSH_TEXTS.on);
    expect(pushResultText('on', 'search')).toBe(PUSH_TEXTS.onSearch);
    expect(pushResultText('denied', 'search')).toBe(PUSH_TEXTS.denied);
  });
});
