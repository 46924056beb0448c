/**
 * The one inline script of a public page (issue 19 §1). Public pages paint from the HTML alone (the
 * CSS their HTML uses is inlined, worker/lib/critical-css.ts); the JavaScript that hydrates them must
 * not compete with that first paint, so no module or stylesheet is linked or preloaded in the HTML.
 * This script adds the public entry, its static imports (modulepreload) and the utilities the inlined CSS left out
 * (the page's `<template id="qk-later-css">`, worker/lib/critical-css.ts splitCss) once
 * the browser reports the page's (largest) contentful paint — load + one frame where paint timing is
 * missing, 3 s after load at the latest — or at once on the visitor's first touch, click or key.
 * A click on a button before hydration is held (the button has no handler yet) and replayed by the
 * entry once the page has hydrated (window.__qkBoot, web/public-entry.tsx), so a click right after
 * load still opens the dialog or applies the filter; links work natively. The entry hydrates in a
 * transition, in slices that never block input for long.
 *
 * The text is constant (URLs come from data-src / data-preload) and free of < > & (nothing
 * in a page's script elements may hold them, test/integration/pages.test.ts), so the CSP allows exactly
 * it by hash (BOOT_SCRIPT_CSP_HASH, checked by test/unit/boot-script.test.ts) and script-src stays 'self'.
 */
export const BOOT_SCRIPT =
  "(function(){var d=document,s=d.currentScript;if(!s)return;function go(){if(!s)return;var e=s;s=null;function add(a,r){(e.getAttribute(a)||'').split(' ').forEach(function(h){if(h){var l=d.createElement('link');l.rel=r;l.href=h;d.head.appendChild(l)}})}var t=d.getElementById('qk-later-css');if(t){var c=d.createElement('style');c.textContent=t.content.textContent;d.head.appendChild(c)}add('data-preload','modulepreload');var m=d.createElement('script');m.type='module';m.src=e.getAttribute('data-src');d.head.appendChild(m)}function later(){setTimeout(go,0)}var P=window.PerformanceObserver,T=P?P.supportedEntryTypes||[]:[],k=T.indexOf('largest-contentful-paint')!==-1?'largest-contentful-paint':T.indexOf('paint')!==-1?'paint':'';if(k){new P(function(l,o){o.disconnect();later()}).observe({type:k,buffered:true});addEventListener('load',function(){setTimeout(go,3000)})}else if(d.readyState==='complete')requestAnimationFrame(later);else addEventListener('load',function(){requestAnimationFrame(later)});['pointerdown','keydown','touchstart'].forEach(function(t){addEventListener(t,go,{capture:true,passive:true,once:true})});var q=[];function cap(v){var t=v.target;if(!t||!t.closest)return;var b=t.closest('button');if(!b)return;v.preventDefault();v.stopPropagation();if(q.indexOf(b)===-1)q.push(b);go()}d.addEventListener('click',cap,true);window.__qkBoot={stop:function(){d.removeEventListener('click',cap,true);var r=q;q=[];return r}}})()";

/** `'sha256-…'` of BOOT_SCRIPT for the Content-Security-Policy's script-src. */
export const BOOT_SCRIPT_CSP_HASH = "'sha256-CX97j0KoRjGh2cs831jo3QH66O1mc/eFhVOqoN+jafs='";
