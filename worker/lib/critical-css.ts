/**
 * Critical CSS of a server-rendered page (issue 19 §1): the site's stylesheet (Tailwind, ~40 KB raw,
 * ~8 KB gz) with its utilities layer cut down to the utilities the page's HTML uses. Everything else
 * (properties, theme, base/preflight, @property) is kept. The page inlines the result, so the first paint
 * needs only the HTML. The utilities it left out (the later part) are applied by the boot script after the
 * first paint, for what hydration and interaction add (dialogs, open filters, toasts). Issue 29.13: they used to
 * come as the whole stylesheet, whose arrival restyled the whole page in one task (~25 ms of main-thread CPU, ×4
 * on a slow phone); the later part matches no element of the server's HTML, so adding it costs ~3 ms.
 *
 * The rule for a utility: it is kept when the first class of its selector occurs in a class attribute
 * of the page (Tailwind's utilities start with their own class; variants are nested inside). Extra
 * rules are harmless; a missing one would show as an unstyled element, so anything the cutter does not
 * understand is kept.
 */

interface ParsedCss {
  /** Text before the utilities layer's rules (incl. `@layer utilities{`). */
  head: string;
  rules: Array<{ cls: string | null; text: string }>;
  /** Text after them (the layer's closing brace onwards). */
  tail: string;
}

const parsed = new Map<string, ParsedCss | null>();

/** Index of the brace closing the block opened at `open` (a `{`), or -1. */
function closing(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const ch = css[i];
    if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
    else if (ch === '"' || ch === "'") {
      const end = css.indexOf(ch, i + 1);
      if (end < 0) return -1;
      i = end;
    }
  }
  return -1;
}

/** The first class of a selector, unescaped (`.sm\:flex` → `sm:flex`, `.\32 xl\:p-4` → `2xl:p-4`). */
export function firstClass(selector: string): string | null {
  const m = /\.((?:\\[0-9a-fA-F]{1,6} ?|\\.|[A-Za-z0-9_-])+)/.exec(selector);
  if (!m) return null;
  return m[1]!.replace(/\\([0-9a-fA-F]{1,6}) ?|\\(.)/g, (_, hex: string | undefined, ch: string | undefined) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : ch!,
  );
}

function parse(css: string): ParsedCss | null {
  const marker = '@layer utilities{';
  const at = css.indexOf(marker);
  if (at < 0) return null;
  const open = at + marker.length - 1;
  const close = closing(css, open);
  if (close < 0) return null;
  const rules: ParsedCss['rules'] = [];
  let i = open + 1;
  while (i < close) {
    const brace = css.indexOf('{', i);
    const semi = css.indexOf(';', i);
    if (brace < 0 || brace > close) return null;
    // A statement without a block (e.g. a nested @layer declaration): keep verbatim.
    if (semi >= 0 && semi < brace) {
      rules.push({ cls: null, text: css.slice(i, semi + 1) });
      i = semi + 1;
      continue;
    }
    const end = closing(css, brace);
    if (end < 0 || end > close) return null;
    const selector = css.slice(i, brace);
    rules.push({ cls: selector.trimStart().startsWith('@') ? null : firstClass(selector), text: css.slice(i, end + 1) });
    i = end + 1;
  }
  return { head: css.slice(0, open + 1), rules, tail: css.slice(close) };
}

/** Every class named in a class attribute of `html` (entities of React's attribute escaping decoded). */
export function htmlClasses(html: string): Set<string> {
  const out = new Set<string>();
  for (const m of html.matchAll(/\sclass="([^"]*)"/g)) {
    const value = m[1]!
      .replace(/&quot;/g, '"')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    for (const c of value.split(/\s+/)) if (c) out.add(c);
  }
  return out;
}

/** A page's stylesheet in two parts: what its HTML uses, inlined, and the rest, applied after the first paint. */
export interface SplitCss {
  /** Everything but the utilities the HTML does not use: the page's `<style>`. */
  critical: string;
  /** Those utilities, in their layer (`''` when there are none, or when the sheet could not be read). */
  later: string;
}

/**
 * `css` split for the page `html` (see the module comment). The later part holds only class rules of the utilities
 * layer, none of which matches an element of the server's HTML: adding it restyles only elements that hydration or
 * interaction gives those classes (a ~3 ms style update instead of ~30 ms for the whole sheet on a city page, issue
 * 29.13). So every variable, `@property` and base rule stays in the critical part, whether the page uses it or not:
 * a later utility may need it, and adding a `:root`, `*` or `@property` rule later would restyle the whole page.
 * A later rule comes after every inlined utility; in the whole sheet it may come before one. That only matters to an
 * element with two utilities that set the same property at once, whose winner markup should not leave to Tailwind's
 * rule order anyway.
 */
export function splitCss(css: string, html: string): SplitCss {
  let p = parsed.get(css);
  if (p === undefined) {
    p = parse(css);
    if (parsed.size > 4) parsed.clear();
    parsed.set(css, p);
  }
  if (!p) return { critical: css, later: '' };
  const used = htmlClasses(html);
  let now = '';
  let later = '';
  for (const r of p.rules) {
    if (r.cls === null || used.has(r.cls)) now += r.text;
    else later += r.text;
  }
  return { critical: p.head + now + p.tail, later: later ? `@layer utilities{${later}}` : '' };
}
