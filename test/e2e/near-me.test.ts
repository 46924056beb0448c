/**
 * "Tonight, near me" (issue 15) on a 390 × 844 phone against the seeded demo app: the position is asked
 * only after the tap, the nearest quizzes come first with their distance, a refusal offers the city
 * select, the first card is above the fold, and the quick chips work without JavaScript.
 */
import { describe, expect, it } from 'vitest';
import { hydrated, newPage, sharedBrowser } from './support/browser';
import { appToday, stockholmDatePlus } from './support/clock';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
/** Järntorget, Göteborg. */
const GOTEBORG = { latitude: 57.6999, longitude: 11.9529 };

/** "1,2 km bort" / "350 m bort" → km. */
function km(text: string): number {
  const m = /([\d,]+) (km|m) bort/.exec(text);
  if (!m) return NaN;
  const n = Number(m[1]!.replace(',', '.'));
  return m[2] === 'm' ? n / 1000 : n;
}

describe('near me', () => {
  const browser = sharedBrowser();

  it('granted: a tap asks for the position, then Göteborg quizzes nearest first with distances; the URL holds the mode', async () => {
    const { page, errors, context } = await newPage(browser(), { context: { ...PHONE, geolocation: GOTEBORG } });
    await page.goto('/');
    await hydrated(page);
    await context.grantPermissions(['geolocation']);
    await page.getByRole('link', { name: 'Hitta quiz nära dig' }).click();
    await page.waitForURL((u) => u.searchParams.get('near') === '57.700,11.953');
    await page.getByRole('heading', { name: 'Quizkvällar nära dig' }).waitFor();
    const cards = page.locator('article[data-quiz-id]');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBeGreaterThan(2);
    const texts = await cards.allTextContents();
    for (const t of texts) expect(t).toMatch(/Göteborg|Mölndal/);
    // Promoted cards lead (the same ranking as everywhere); the others are nearest first.
    const standard = await page.locator('article[data-tier="standard"]').allTextContents();
    const d = standard.map(km);
    expect(d.every((x) => Number.isFinite(x) && x <= 10)).toBe(true);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
    // Reloading the shared URL renders the same mode on the server.
    await page.reload();
    await hydrated(page);
    expect(await page.getByRole('heading', { name: 'Quizkvällar nära dig' }).isVisible()).toBe(true);
    expect((await page.locator('article[data-tier="standard"]').allTextContents()).map(km)).toEqual(d);
    expect(errors).toEqual([]);
  });

  it('denied: a clear Swedish message and the city select, no error screen', async () => {
    const { page, errors } = await newPage(browser(), { context: PHONE });
    await page.goto('/');
    await hydrated(page);
    await page.getByRole('link', { name: 'Nära mig' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Välj en stad i stället');
    await alert.getByLabel('Stad').selectOption('goteborg');
    await alert.getByRole('button', { name: 'Visa quiz' }).click();
    await page.waitForURL((u) => u.searchParams.get('city') === 'goteborg');
    await expect.poll(() => page.locator('article[data-quiz-id]').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.getByText('Ett fel uppstod').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('the top of the first quiz card is above the fold at 390 × 844 on the start, city, weekday and combined pages', async () => {
    const { page, errors } = await newPage(browser(), { context: PHONE });
    // A combined page with quizzes: the weekday of Göteborg's first listed quiz.
    const res = await page.request.get('/api/listing?city=goteborg&weekday=all');
    const first = ((await res.json()) as { items: Array<{ date: string }> }).items[0]!;
    const wd = ['sondag', 'mandag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lordag'][new Date(`${first.date}T12:00:00Z`).getUTCDay()]!;
    for (const path of ['/?weekday=all', '/quiz/goteborg', `/quiz/${wd}`, `/quiz/goteborg/${wd}`]) {
      await page.goto(path);
      const card = page.locator('article[data-quiz-id]').first();
      await card.waitFor();
      const box = (await card.boundingBox())!;
      expect(box.y, path).toBeLessThan(844 - 40);
      expect(await page.getByRole('navigation', { name: 'Snabbval' }).isVisible(), path).toBe(true);
    }
    expect(errors).toEqual([]);
  });

  it('without JavaScript: the chips are links and the filter panel opens from the Filter link', async () => {
    const { page, errors } = await newPage(browser(), { javaScriptEnabled: false, context: PHONE });
    await page.goto('/');
    const today = JSON.parse((await page.locator('#__DATA__').textContent())!).today as string;
    expect(today).toBe(appToday());
    const tomorrow = stockholmDatePlus(1);
    await page.getByRole('link', { name: 'Imorgon' }).click();
    await page.waitForURL((u) => u.searchParams.get('date') === tomorrow);
    expect(await page.getByRole('link', { name: 'Imorgon' }).getAttribute('aria-current')).toBe('true');
    for (const t of await page.locator('article[data-quiz-id] time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime'))))
      expect(t!.slice(0, 10)).toBe(tomorrow);
    expect(await page.getByLabel('Veckodag').isVisible()).toBe(false);
    await page.getByRole('link', { name: /^Filter/ }).click();
    expect(await page.getByLabel('Veckodag').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('the map opens on demand (a lazy chunk), its tiles answered here (no network), and a marker opens the quiz', async () => {
    const { page, errors } = await newPage(browser(), { context: PHONE });
    const tiles: string[] = [];
    const outside: string[] = [];
    // A 1 × 1 PNG for every tile; any other request leaving the app fails the test.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await page.route('https://tile.openstreetmap.org/**', (route) => {
      tiles.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'image/png', body: png });
    });
    await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost|tile\.openstreetmap\.org)/, (route) => {
      outside.push(route.request().url());
      return route.abort();
    });
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/quiz/goteborg');
    await hydrated(page);
    expect(scripts.some((u) => /QuizMap|leaflet/.test(u))).toBe(false);
    expect(tiles).toEqual([]);
    await page.getByRole('button', { name: 'Karta' }).click();
    const map = page.getByRole('region', { name: 'Karta över quizkvällarna' });
    await page.locator('[data-map-ready="true"]').waitFor();
    expect(scripts.some((u) => /QuizMap/.test(u))).toBe(true);
    await expect.poll(() => tiles.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await map.getByText('OpenStreetMap').first().isVisible()).toBe(true);
    // Open clusters until a quiz marker is on screen, then open it.
    const pin = map.locator('.quiz-pin').first();
    for (let i = 0; i < 5 && !(await pin.isVisible()); i++) await map.locator('.marker-cluster').first().click();
    const title = (await pin.getAttribute('title'))!;
    await pin.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(title).toContain((await dialog.getByRole('heading').first().textContent())!.trim().split(',')[0]!);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Lista' }).click();
    await page.locator('article[data-quiz-id]').first().waitFor();
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
