/**
 * Data in and out (issue 21): the superadmin uploads a 2 000-row CSV, starts the import, watches the
 * progress bar reach 100 % (the job runs in the app's local Workflow engine), and
 * downloads the report; an owner downloads their own data from /account.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loginAs, registerVerifiedOwner } from './support/auth';
import { bulkRow, KNOWN_TOWNS } from '../fixtures/towns';
import { newPage, ownApp, stamp, sharedBrowser } from './support/browser';

const ADMIN = { email: 'admin@quizkvall.local', password: 'quizkvall-admin' };

describe('import and export', () => {
  // Its own app: the import's Workflow steps run in the app's one workerd process and would starve other stories.
  ownApp('quizkvall-e2e-import');
  const browser = sharedBrowser();

  it('superadmin: 2 000 rows → progress bar to 100 % → report download', async () => {
    const p = `E2e${stamp()}`;
    // Every other Wednesday (13 quizzes a row, not a weekly series' 26): the quizzes' inserts are nearly all of the
    // import's time, and the rows, steps and progress this story follows are the same.
    const lines = ['namn;adress;stad;veckodag;starttid;upprepning'];
    // Known towns (issue 43.6), in turn; names that are never near-duplicates of one another (test/fixtures/towns.ts).
    for (let i = 0; i < 2000; i++) lines.push(bulkRow(p, i, KNOWN_TOWNS, ['onsdag', '19:30', 'varannan vecka'], ';'));
    const folder = mkdtempSync(join(tmpdir(), 'qk-e2e-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const file = join(folder, 'stor-import.csv');
    writeFileSync(file, lines.join('\r\n'));

    const { page, errors } = await newPage(browser());
    await loginAs(page, ADMIN.email, ADMIN.password);
    await page.goto('/superadmin');
    await page.getByRole('tab', { name: 'Import' }).click();
    await page.getByLabel('CSV-fil').setInputFiles(file);
    await page.getByText('2 000 rader · 2 000 nya · 0 dubbletter · 0 med fel').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Importera', exact: true }).click();
    const bar = page.getByRole('progressbar', { name: 'Importförlopp' });
    await bar.waitFor();
    // The bar survives a reload (job state is in D1).
    // The local app runs the import's steps in the same process: a reload may wait for a step to finish.
    await page.reload({ timeout: 120_000 });
    await page.getByRole('tab', { name: 'Import' }).click();
    await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 120_000, interval: 500 }).toBe('100');
    await page.getByText('2 000 av 2 000 rader (100 %)').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Ladda ner rapport (CSV)' }).click()]);
    const report = readFileSync((await download.path())!, 'utf8');
    expect(report.startsWith('\uFEFF')).toBe(true); // Excel reads å/ä/ö
    const rows = report.trim().split(/\r\n/);
    expect(rows[0]).toBe('rad,resultat,meddelande,verksamhet');
    expect(rows).toHaveLength(2001);
    expect(rows[1]).toMatch(/^2,skapad,,/);
    expect(errors).toEqual([]);
  }, 240_000);

  it('owner: "Ladda ner mina data" on /account gives their own data as JSON', async () => {
    const { page, errors } = await newPage(browser());
    const owner = await registerVerifiedOwner(page);
    await page.goto('/account');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Ladda ner mina data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^quizkvall-mina-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(data.account.email).toBe(owner.email);
    expect(data.format).toBe('quizkvall-export');
    expect(errors).toEqual([]);
  });
});
