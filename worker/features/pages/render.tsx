/**
 * Server rendering of public pages: the same <PublicApp> the browser hydrates (rendered by the lazy module
 * public-app.tsx), the page data embedded once as JSON, head tags for search engines. All JSON in the HTML goes through serializeForScript.
 * Issue 19 §1: the CSS is inlined and no script is linked or preloaded; the boot script
 * (worker/lib/boot-script.ts) starts the public entry after the first paint or on the first interaction.
 */
import type { PublicPageData } from './contract';
import { serializeForScript } from '../../lib/json-ld';
import { getPublicAssets } from '../../lib/assets';
import { BOOT_SCRIPT } from '../../lib/boot-script';
import { splitCss } from '../../lib/critical-css';
import { publicAppRenderer } from '../../lib/ssr';

export interface PageHead {
  title: string;
  description: string;
  /** Absolute canonical URL. */
  canonical: string;
  keywords?: string;
  /** JSON-LD objects, each emitted in its own script element. */
  jsonLd?: unknown[];
  robots?: string;
  /** Absolute URL of the page's share image (og:image, 1200×630 PNG from /og/*). */
  image?: string;
}

const BODY_CLASS = 'bg-slate-50 text-slate-900 antialiased';

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export async function renderPublicPage(assetsBinding: Fetcher | undefined, head: PageHead, data: PublicPageData): Promise<string> {
  const assets = await getPublicAssets(assetsBinding);
  const body = (await publicAppRenderer()).renderPublicApp(data);
  const css = assets.inlineCss === null ? null : splitCss(assets.inlineCss, `<body class="${BODY_CLASS}">${body}`);
  const e = escapeHtml;
  const meta = [
    `<title>${e(head.title)}</title>`,
    `<meta name="description" content="${e(head.description)}">`,
    head.keywords ? `<meta name="keywords" content="${e(head.keywords)}">` : '',
    `<link rel="canonical" href="${e(head.canonical)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:locale" content="sv_SE">`,
    `<meta property="og:site_name" content="Quizkväll">`,
    `<meta property="og:title" content="${e(head.title)}">`,
    `<meta property="og:description" content="${e(head.description)}">`,
    `<meta property="og:url" content="${e(head.canonical)}">`,
    ...(head.image
      ? [
          `<meta property="og:image" content="${e(head.image)}">`,
          `<meta property="og:image:type" content="image/png">`,
          `<meta property="og:image:width" content="1200">`,
          `<meta property="og:image:height" content="630">`,
          `<meta property="og:image:alt" content="${e(head.title)}">`,
          `<meta name="twitter:card" content="summary_large_image">`,
          `<meta name="twitter:image" content="${e(head.image)}">`,
        ]
      : [`<meta name="twitter:card" content="summary">`]),
    head.robots ? `<meta name="robots" content="${e(head.robots)}">` : '',
    // Issue 19 §1: the CSS this HTML uses is inlined, so the first paint needs the HTML alone; the utilities it
    // leaves out wait in a template for the boot script, after the first paint (issue 29.13).
    ...(css !== null
      ? [`<style>${css.critical.replace(/<\/style/gi, '<\\/style')}</style>`]
      : assets.styles.map((href) => `<link rel="stylesheet" href="${e(href)}">`)),
    ...(head.jsonLd ?? []).map((obj) => `<script type="application/ld+json">${serializeForScript(obj)}</script>`),
  ]
    .filter(Boolean)
    .join('\n    ');
  return `<!doctype html>
<html lang="sv">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="theme-color" content="#4338ca">
    <link rel="icon" href="/favicon.svg" type="image/svg+xml">
    <link rel="manifest" href="/manifest.webmanifest">
    <link rel="apple-touch-icon" href="/icons/icon-192.png">
    ${meta}
  </head>
  <body class="${BODY_CLASS}">
    <div id="root">${body}</div>
    <script type="application/json" id="__DATA__">${serializeForScript(data)}</script>
    ${css?.later ? `<template id="qk-later-css">${e(css.later)}</template>` : ''}
    ${assets.script ? `<script data-src="${e(assets.script)}" data-preload="${e(assets.preloads.join(' '))}">${BOOT_SCRIPT}</script>` : ''}
  </body>
</html>`;
}
