/**
 * Lighthouse (npm `lighthouse`, default = mobile preset with simulated throttling) on Debian's
 * /usr/bin/chromium, started by test/chromium.ts (the same start-up as the e2e stories). Shared by
 * `npm run bench` (LCP per page) and test/e2e/lighthouse.test.ts (score thresholds). Runs offline
 * against a loopback server.
 */
import lighthouse from 'lighthouse';
import { launchChromiumForLighthouse } from '../chromium';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface LighthouseResult {
  url: string;
  /** 0–100 per category. */
  scores: Record<Category, number>;
  /** Largest Contentful Paint (simulated mobile), ms. */
  lcpMs: number;
  /** First Contentful Paint (simulated mobile), ms. */
  fcpMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
  /** Titles of failed audits (score < 1) in the non-performance categories, to explain a miss. */
  failedAudits: string[];
}

/** Runs Lighthouse on each URL in turn with one Chromium. */
export async function runLighthouse(urls: string[]): Promise<LighthouseResult[]> {
  const chrome = await launchChromiumForLighthouse();
  try {
    const out: LighthouseResult[] = [];
    for (const url of urls) {
      const runner = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
      if (!runner) throw new Error(`lighthouse gave no result for ${url}`);
      const lhr = runner.lhr;
      if (lhr.runtimeError) throw new Error(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<Category, number>;
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      const failedAudits: string[] = [];
      for (const c of CATEGORIES) {
        if (c === 'performance') continue;
        for (const ref of lhr.categories[c]?.auditRefs ?? []) {
          const a = lhr.audits[ref.id];
          if (a && ref.weight > 0 && a.score !== null && a.score < 1) failedAudits.push(`${c}: ${a.id} (${a.title})`);
        }
      }
      out.push({
        url,
        scores,
        lcpMs: Math.round(audit('largest-contentful-paint')),
        fcpMs: Math.round(audit('first-contentful-paint')),
        totalBlockingTimeMs: Math.round(audit('total-blocking-time')),
        cumulativeLayoutShift: +audit('cumulative-layout-shift').toFixed(3),
        failedAudits,
      });
    }
    return out;
  } finally {
    chrome.kill();
  }
}
