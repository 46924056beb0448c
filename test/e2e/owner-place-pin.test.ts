/**
 * The owner sets a place's coordinates by dragging a pin (issue 15): the map loads only on request, it
 * starts at the centre of the place's town (gazetteer), a click or drag fills Latitud/Longitud (the
 * address stays as typed), and saving stores them. Tiles are answered here; nothing leaves the app.
 */
import { describe, expect, it } from 'vitest';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, newPage, stamp, sharedBrowser } from './support/browser';

describe('owner: pin a place on the map', () => {
  const browser = sharedBrowser();

  it('a click on the map moves the pin and fills the coordinates; saving keeps the address', async () => {
    const { page, errors } = await newPage(browser());
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    let tiles = 0;
    await page.route('https://tile.openstreetmap.org/**', (route) => {
      tiles++;
      return route.fulfill({ status: 200, contentType: 'image/png', body: png });
    });
    await registerVerifiedOwner(page);
    await page.goto('/admin');
    const venueName = `Nålpuben ${stamp()}`;
    await page.request.post('/api/owner/venues', { data: { name: venueName }, headers: { origin: baseURL() } });
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: venueName }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Lägg till plats' }).click();
    const add = page.getByRole('dialog', { name: 'Lägg till plats' });
    await add.waitFor();
    await add.getByLabel('Platsens namn').fill('Källaren');
    await add.getByLabel('Adress').fill('Stora Torget 4');
    await add.getByLabel('Stad').fill('Västerås');
    expect(tiles).toBe(0);
    await add.getByRole('button', { name: 'Välj på karta' }).click();
    const map = add.getByRole('region', { name: 'Karta: dra nålen till platsen' });
    await map.waitFor();
    await expect.poll(() => tiles, { timeout: 10_000 }).toBeGreaterThan(0);
    // The map starts at Västerås' centre; a click 40 px right and 30 px below the middle moves the pin there.
    await map.scrollIntoViewIfNeeded();
    await page.locator('.leaflet-marker-icon').waitFor();
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + 40, box.y + box.height / 2 + 30);
    const lat = Number(await add.getByLabel('Latitud').inputValue());
    const lng = Number(await add.getByLabel('Longitud').inputValue());
    expect(lat).toBeGreaterThan(59.55);
    expect(lat).toBeLessThan(59.616);
    expect(lng).toBeGreaterThan(16.553);
    expect(lng).toBeLessThan(16.65);
    expect(await add.getByLabel('Adress').inputValue()).toBe('Stora Torget 4');
    await add.getByRole('button', { name: 'Lägg till plats' }).click();
    await add.waitFor({ state: 'hidden' });
    const card = page.getByRole('article', { name: 'Källaren' });
    await card.waitFor();
    expect(await card.getByText('Stora Torget 4, Västerås').isVisible()).toBe(true);
    const dashboard = (await (await page.request.get('/api/owner/dashboard')).json()) as {
      places: Array<{ name: string; latitude: number; longitude: number }>;
    };
    const stored = dashboard.places.find((p) => p.name === 'Källaren')!;
    expect([stored.latitude, stored.longitude]).toEqual([lat, lng]);
    expect(errors).toEqual([]);
  });
});
