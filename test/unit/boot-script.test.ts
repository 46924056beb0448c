/**
 * Issue 19 §1: the public pages' one inline script and the CSS they inline.
 *  - the CSP hash allows exactly BOOT_SCRIPT (a changed script with a stale hash would be blocked and
 *    no public page would ever hydrate);
 *  - the page's stylesheet is split: the utilities the HTML uses are inlined with every variable, base rule and
 *    @property; the others come later (issue 29.13), as class rules only; a sheet it cannot read is inlined whole.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BOOT_SCRIPT, BOOT_SCRIPT_CSP_HASH } from '../../worker/lib/boot-script';
import { firstClass, htmlClasses, splitCss } from '../../worker/lib/critical-css';

describe('boot script', () => {
  it('is allowed by its CSP hash', () => {
    expect(BOOT_SCRIPT_CSP_HASH).toBe(`'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`);
  });

  it('links and preloads nothing by itself: every URL comes from data attributes', () => {
    expect(BOOT_SCRIPT).not.toMatch(/\/assets\//);
    expect(BOOT_SCRIPT).toContain("getAttribute('data-src')");
  });

  it('applies the later utilities from the page, not the whole stylesheet (issue 29.13)', () => {
    expect(BOOT_SCRIPT).toContain("getElementById('qk-later-css')");
    expect(BOOT_SCRIPT).not.toMatch(/'stylesheet'/);
  });

  it('holds no < > & (the pages keep every script element free of them)', () => {
    expect(BOOT_SCRIPT).not.toMatch(/[<>&]/);
  });
});

const CSS =
  '/*! tailwindcss */@layer properties{@supports (x){*,:before{--tw-shadow:0 0 #0000;--tw-blur:initial}}}' +
  '@layer theme{:root,:host{--font-sans:Arial, sans-serif;--default-font-family:var(--font-sans);--color-red-600:red;--color-slate-700:#333;--spacing:.25rem}}' +
  '@layer base{html{font-family:var(--default-font-family)}}@layer components;' +
  '@layer utilities{.p-2{padding:calc(var(--spacing) * 2)}.text-red-600{color:var(--color-red-600)}.text-slate-700{color:var(--color-slate-700)}' +
  '.sm\\:flex{@media (width>=40rem){display:flex}}.\\32 xl\\:hidden{display:none}.shadow{--tw-shadow:0 1px #000;box-shadow:var(--tw-shadow)}.\\[\\&\\>svg\\]\\:h-4{&>svg{height:1rem}}}' +
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}@property --tw-blur{syntax:"*";inherits:false}';

describe('critical CSS', () => {
  it('reads escaped class names', () => {
    expect(firstClass('.sm\\:flex')).toBe('sm:flex');
    expect(firstClass('.\\32 xl\\:hidden')).toBe('2xl:hidden');
    expect(firstClass('.\\[\\&\\>svg\\]\\:h-4')).toBe('[&>svg]:h-4');
    expect([...htmlClasses('<p class="p-2 [&amp;&gt;svg]:h-4">x</p><i class="sm:flex"></i>')]).toEqual(['p-2', '[&>svg]:h-4', 'sm:flex']);
  });

  const PAGE = '<body class="p-2 sm:flex 2xl:hidden"><p class="text-slate-700 [&amp;&gt;svg]:h-4">x</p></body>';

  it('inlines the utilities of the page and every variable, base rule and @property', () => {
    const { critical } = splitCss(CSS, PAGE);
    for (const kept of [
      '.p-2{',
      '.sm\\:flex{',
      '.\\32 xl\\:hidden{',
      '.text-slate-700{',
      '.\\[\\&\\>svg\\]\\:h-4{',
      '--spacing:.25rem',
      '--color-slate-700:#333',
      // Variables and registrations nothing inlined uses: a later utility may (.text-red-600, .shadow).
      '--color-red-600:red',
      '--tw-shadow:0 0 #0000',
      '@property --tw-shadow',
      '@property --tw-blur',
      'html{font-family',
      '@layer components;',
    ]) {
      expect(critical, kept).toContain(kept);
    }
    for (const later of ['.text-red-600', '.shadow{']) expect(critical, later).not.toContain(later);
  });

  it('leaves for later exactly the utilities the page does not use, as class rules of the utilities layer', () => {
    const { critical, later } = splitCss(CSS, PAGE);
    expect(later).toBe('@layer utilities{.text-red-600{color:var(--color-red-600)}.shadow{--tw-shadow:0 1px #000;box-shadow:var(--tw-shadow)}}');
    // Nothing that would restyle the whole page when added: no :root, *, element or @property rule.
    expect(later).not.toMatch(/:root|\*|@property|html\{|@layer (theme|base|properties)/);
    // Together they hold every rule of the sheet once.
    const rules = (css: string) => css.match(/\.[^{}]+\{[^{}]*\}/g) ?? [];
    expect([...rules(critical), ...rules(later)].sort()).toEqual(rules(CSS).sort());
  });

  it('leaves nothing for later when the page uses every utility', () => {
    expect(splitCss(CSS, '<p class="p-2 sm:flex 2xl:hidden text-slate-700 [&amp;&gt;svg]:h-4 text-red-600 shadow"></p>').later).toBe('');
  });

  it('inlines a stylesheet it cannot read whole', () => {
    const odd = '.a{color:red}.b{color:blue}';
    expect(splitCss(odd, '<p class="a"></p>')).toEqual({ critical: odd, later: '' });
  });
});
