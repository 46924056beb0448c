/**
 * Issue 19 §1: the public pages' one inline script and the CSS they inline.
 *  - the CSP hash allows exactly BOOT_SCRIPT (a changed script with a stale hash would be blocked and
 *    no public page would ever hydrate);
 *  - critical CSS keeps the utilities the HTML uses, drops the others and the theme variables nothing
 *    refers to, and keeps everything it cannot read.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BOOT_SCRIPT, BOOT_SCRIPT_CSP_HASH } from '../../worker/lib/boot-script';
import { criticalCss, firstClass, htmlClasses } from '../../worker/lib/critical-css';

describe('boot script', () => {
  it('is allowed by its CSP hash', () => {
    expect(BOOT_SCRIPT_CSP_HASH).toBe(`'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`);
  });

  it('links and preloads nothing by itself: every URL comes from data attributes', () => {
    expect(BOOT_SCRIPT).not.toMatch(/\/assets\//);
    expect(BOOT_SCRIPT).toContain("getAttribute('data-src')");
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

  it('keeps the utilities of the page, drops the rest and unreferenced variables', () => {
    const out = criticalCss(CSS, '<body class="p-2 sm:flex 2xl:hidden"><p class="text-slate-700 [&amp;&gt;svg]:h-4">x</p></body>');
    for (const kept of [
      '.p-2{',
      '.sm\\:flex{',
      '.\\32 xl\\:hidden{',
      '.text-slate-700{',
      '.\\[\\&\\>svg\\]\\:h-4{',
      '--spacing:.25rem',
      '--color-slate-700:#333',
      '--font-sans:Arial',
      'html{font-family',
    ]) {
      expect(out, kept).toContain(kept);
    }
    for (const dropped of ['.text-red-600', '--color-red-600', '.shadow{', '@property --tw-shadow', '--tw-shadow:0 0', '@property --tw-blur']) {
      expect(out, dropped).not.toContain(dropped);
    }
  });

  it('keeps variables a kept utility uses', () => {
    const out = criticalCss(CSS, '<div class="shadow"></div>');
    expect(out).toContain('@property --tw-shadow');
    expect(out).toContain('--tw-shadow:0 0 #0000');
    expect(out).not.toContain('@property --tw-blur');
  });

  it('returns a stylesheet it cannot read unchanged', () => {
    const odd = '.a{color:red}.b{color:blue}';
    expect(criticalCss(odd, '<p class="a"></p>')).toBe(odd);
  });
});
