/**
 * Lighthouse's Chromium (test/chromium.ts launchChromiumForLighthouse) leaves nothing in TMPDIR: chrome-launcher kills
 * it with SIGKILL, so Chromium never removed its singleton folder (org.chromium.Chromium.*), one per Lighthouse run.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { launchChromiumForLighthouse } from '../chromium';

describe("Lighthouse's Chromium", () => {
  it('leaves no folder in TMPDIR once killed', async () => {
    const before = new Set(readdirSync(tmpdir()));
    const chrome = await launchChromiumForLighthouse();
    // It is up: its DevTools port answers.
    expect((await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).ok).toBe(true);
    const exited = new Promise((resolve) => chrome.process.once('exit', resolve));
    chrome.kill();
    await exited;
    // Only what this browser could leave: other test files write to the same TMPDIR at the same time.
    const ours = (f: string) => f.startsWith('org.chromium.') || f.startsWith('lighthouse-chromium-') || f.startsWith('.org.chromium.');
    expect(readdirSync(tmpdir()).filter((f) => !before.has(f) && ours(f))).toEqual([]);
  }, 60_000);
});
