/**
 * Swedish only (issue 29.8): every page and dialog a story renders is scanned for common English UI
 * words. The scan runs in the page (a MutationObserver, debounced) over the rendered text (innerText,
 * so only what is shown, open dialogs included) and the names people hear or read in fields
 * (aria-label, placeholder, title); each hit becomes an entry in the story's `errors`, which every
 * story asserts is empty. Wired into `newPage` (browser.ts), so every story runs it.
 */
import type { BrowserContext } from 'playwright-core';

/**
 * Words and phrases that are English UI and never Swedish. Whole words, case-sensitive for the
 * capitalised single words (a button or heading label), case-insensitive for the phrases. Words that
 * Swedish uses too ("Feedback", "Premium", "Beta", "Quiz", "Admin", "email-adress") are not listed.
 */
const WORDS = [
  'Add',
  'Bug',
  'Cancel',
  'Close',
  'Confirm',
  'Continue',
  'Delete',
  'Dummy',
  'Edit',
  'Error',
  'Failed',
  'Follow',
  'Loading',
  'Next',
  'Password',
  'Please',
  'Previous',
  'Real',
  'Required',
  'Retry',
  'Save',
  'Search',
  'Settings',
  'Share',
  'Submit',
  'Subscribe',
  'Success',
  'Unknown',
  'Venue',
  'Verify',
  'Welcome',
];
const PHRASES = [
  'sign in',
  'sign up',
  'sign out',
  'log in',
  'log out',
  'try again',
  'went wrong',
  'not found',
  'failed to',
  'please',
  'email verification',
  'take over',
  'load more',
  'show more',
  'read more',
  'learn more',
  'go back',
  'add to calendar',
  'is required',
  'invalid',
];

const EDGE_BEFORE = '(?<![\\p{L}\\p{N}_-])';
const EDGE_AFTER = '(?![\\p{L}\\p{N}_-])';
const ENGLISH = [
  new RegExp(`${EDGE_BEFORE}(?:${WORDS.join('|')})${EDGE_AFTER}`, 'gu'),
  new RegExp(`${EDGE_BEFORE}(?:${PHRASES.join('|')})${EDGE_AFTER}`, 'giu'),
];

/** The English UI words in `text`, each with a little context ("…Failed to take over…"). */
export function englishIn(text: string): string[] {
  const hits: string[] = [];
  for (const m of ENGLISH.flatMap((re) => [...text.matchAll(re)])) {
    const from = Math.max(0, m.index - 30);
    hits.push(
      `"${m[0]}" in "${text
        .slice(from, m.index + m[0].length + 30)
        .replace(/\s+/g, ' ')
        .trim()}"`,
    );
  }
  return hits;
}

/** In the page: sends the shown text after each change (debounced) to the binding. */
const IN_PAGE = `(() => {
  if (window.top !== window) return;
  let timer;
  const send = () => {
    timer = undefined;
    if (!document.body) return;
    const attrs = [];
    for (const el of document.querySelectorAll('[aria-label],[placeholder],[title]')) {
      if (!el.checkVisibility || !el.checkVisibility()) continue;
      for (const a of ['aria-label', 'placeholder', 'title']) {
        const v = el.getAttribute(a);
        if (v) attrs.push(v);
      }
    }
    window.__qkSwedishOnly?.(location.pathname + location.search, document.title + '\\n' + document.body.innerText + '\\n' + attrs.join('\\n'));
  };
  const schedule = () => {
    if (timer === undefined) timer = setTimeout(send, 150);
  };
  const start = () => {
    new MutationObserver(schedule).observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['open', 'hidden', 'class', 'aria-label', 'placeholder', 'title'] });
    schedule();
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();`;

/** Scans every page of `context`; each English hit is pushed once (per page and word) into `errors`. */
export async function scanForEnglish(context: BrowserContext, errors: string[]): Promise<void> {
  const seen = new Set<string>();
  await context.exposeBinding('__qkSwedishOnly', (_source, where: string, text: string) => {
    for (const hit of englishIn(text)) {
      const key = `${where} ${hit}`;
      if (seen.has(key)) continue;
      seen.add(key);
      errors.push(`english: ${hit} on ${where}`);
    }
  });
  await context.addInitScript(IN_PAGE);
}
