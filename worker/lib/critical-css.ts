/**
 * Critical CSS of a server-rendered page (issue 19 §1): the public stylesheet (Tailwind, ~39 KB raw,
 * ~8 KB gz) with its utilities layer cut down to the utilities the page's HTML uses. Everything else
 * (properties, theme, base/preflight, @property) is kept, less the custom properties nothing kept refers to. The page inlines the result, so the
 * first paint needs only the HTML — and the HTML stays within the first round trip of a cold
 * connection (~14 KB) — while the full stylesheet arrives with the JavaScript, after the first paint,
 * for what hydration and interaction add (dialogs, open filters, the map).
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

/** `css` with the utilities the HTML does not use left out (the whole `css` when it cannot be read). */
export function criticalCss(css: string, html: string): string {
  let p = parsed.get(css);
  if (p === undefined) {
    p = parse(css);
    if (parsed.size > 4) parsed.clear();
    parsed.set(css, p);
  }
  if (!p) return css;
  const used = htmlClasses(html);
  let utilities = '';
  for (const r of p.rules) if (r.cls === null || used.has(r.cls)) utilities += r.text;
  return dropUnusedVariables(p.head, utilities, p.tail, html);
}

/** A block holding only custom-property declarations (the theme's `:root`, the properties fallback). */
const VAR_BLOCK = /\{((?:--[\w-]+:[^{};]*;?)+)\}/g;
const PROPERTY_RULE = /@property (--[\w-]+)\{[^{}]*\}/g;

function varRefs(text: string, into: Set<string>) {
  for (const m of text.matchAll(/var\((--[\w-]+)/g)) into.add(m[1]!);
}

/**
 * Theme variables, `@property` rules and fallback initial values of custom properties that nothing
 * kept refers to (`var(--x)`) are left out too: the theme declares every colour the whole app uses.
 */
function dropUnusedVariables(head: string, utilities: string, tail: string, html: string): string {
  const refs = new Set<string>();
  varRefs(utilities, refs);
  // Inline styles and arbitrary values in the markup may name a variable too.
  varRefs(html, refs);
  varRefs(head.replace(VAR_BLOCK, '{}'), refs);
  varRefs(tail.replace(VAR_BLOCK, '{}').replace(PROPERTY_RULE, ''), refs);
  const filterBlocks = (text: string) =>
    text.replace(VAR_BLOCK, (_, body: string) => {
      const kept = body.split(';').filter((d) => d && refs.has(d.slice(0, d.indexOf(':'))));
      return `{${kept.join(';')}}`;
    });
  // Kept theme values may refer to further variables (--default-font-family: var(--font-sans)).
  for (let size = -1; size !== refs.size; ) {
    size = refs.size;
    varRefs(filterBlocks(head) + filterBlocks(tail), refs);
  }
  return filterBlocks(head) + utilities + filterBlocks(tail).replace(PROPERTY_RULE, (rule, name: string) => (refs.has(name) ? rule : ''));
}
