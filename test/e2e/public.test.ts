/**
 * Visitor stories on the public pages (spec 01 §1–2, §4, §8; 02 §2.8) against the seeded demo app.
 * The demo data is relative to the app's pinned day (support/clock.ts), so these stories hold on any
 * TEST_NOW — including a month end, where the next Tuesday (and so the picker's month) is next month.
 */
import { describe, expect, it } from 'vitest';
import { isoWeekday, nextWeekdayOnOrAfter } from '../../worker/lib/clock';
import { WEEKDAYS } from '../../worker/lib/swedish';
import { baseURL, COUNT_LINE, expectAccessible, hydrated, newPage, shown, sharedBrowser } from './support/browser';
import { appToday } from './support/clock';

describe('public discovery', () => {
  const browser = sharedBrowser();

  it('a visitor filters by city and weekday, searches, opens a detail dialog and loads more', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/');
    await hydrated(page);
    await page.getByRole('heading', { name: 'Upptäck quizkvällar i din stad' }).waitFor();
    await expectAccessible(page);
    const todayIso = JSON.parse((await page.locator('#__DATA__').textContent())!).today as string;
    expect(todayIso).toBe(appToday());
    // The demo is listed as of that day, not the real date: quizzes on the pinned today are listed. (Not "the
    // first page's earliest date": the stories beside this one add real accounts' quizzes on later days, which
    // rank before the demo's house account and can fill the first page.)
    const onToday = (await (await page.request.get(`/api/listing?date=${todayIso}`)).json()) as { total: number; items: Array<{ date: string }> };
    expect(onToday.total).toBeGreaterThan(0);
    expect(new Set(onToday.items.map((i) => i.date))).toEqual(new Set([todayIso]));
    const todayLabel = new Intl.DateTimeFormat('sv-SE', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
      new Date(`${todayIso}T00:00:00Z`),
    );

    // All upcoming quizzes, then one city.
    await page.getByLabel('Veckodag').selectOption('all');
    await page.waitForURL((u) => u.searchParams.get('weekday') === 'all');
    await expect.poll(async () => (await shown(page))[1], { timeout: 15_000 }).toBeGreaterThan(12);
    const [, everywhere] = await shown(page);
    await page.getByLabel('Stad').selectOption('stockholm');
    await page.waitForURL((u) => u.searchParams.get('city') === 'stockholm');
    await expect.poll(async () => (await shown(page))[1], { timeout: 15_000 }).toBeLessThan(everywhere);
    const cards = page.locator('article[data-quiz-id]');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    for (const text of await cards.allTextContents()) expect(text).toContain('Stockholm');

    // A weekday moves the date to its next occurrence; the filters live in the URL.
    await page.getByLabel('Veckodag').selectOption('tisdag');
    await page.waitForURL((u) => u.searchParams.get('weekday') === 'tisdag' && !!u.searchParams.get('date'));
    const date = new URL(page.url()).searchParams.get('date')!;
    expect(date).toBe(nextWeekdayOnOrAfter(todayIso, 2));
    expect(await page.getByLabel('Datum').getAttribute('data-value')).toBe(date);

    // The date picker: weeks start on Monday, days before today are disabled, a date sets the weekday.
    await page.getByLabel('Datum').click();
    const picker = page.getByRole('dialog', { name: 'Välj datum' });
    await picker.waitFor();
    expect(await picker.locator('th').allTextContents()).toEqual(['mån', 'tis', 'ons', 'tor', 'fre', 'lör', 'sön']);
    // The picker opens on the chosen date's month; when that is next month, one step back reaches today's,
    // and no step goes back further.
    const monthName = (iso: string) => new Intl.DateTimeFormat('sv-SE', { month: 'long', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
    const back = picker.getByRole('button', { name: 'Föregående månad' });
    if (date.slice(0, 7) !== todayIso.slice(0, 7)) {
      await picker.getByText(`${monthName(date)} ${date.slice(0, 4)}`, { exact: true }).waitFor();
      await back.click();
    }
    await picker.getByText(`${monthName(todayIso)} ${todayIso.slice(0, 4)}`, { exact: true }).waitFor();
    expect(await back.isDisabled()).toBe(true);
    const dayButtons = picker.locator('td button');
    const states = await dayButtons.evaluateAll((els) => els.map((e) => [e.getAttribute('aria-label'), (e as HTMLButtonElement).disabled] as const));
    const todayIndex = states.findIndex(([label]) => label === todayLabel);
    expect(todayIndex).toBeGreaterThanOrEqual(0);
    expect(states.every(([, disabled], i) => disabled === i < todayIndex)).toBe(true);
    await expectAccessible(page);
    const dateLabel = new Intl.DateTimeFormat('sv-SE', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
      new Date(`${date}T00:00:00Z`),
    );
    // A later day than today and not the chosen one (today may be the grid's last day: then next month's first).
    let pick = states
      .slice(todayIndex + 1)
      .map(([label]) => label!)
      .find((l) => l !== dateLabel);
    if (!pick) {
      await picker.getByRole('button', { name: 'Nästa månad' }).click();
      pick = (await dayButtons.evaluateAll((els) => els.map((e) => [e.getAttribute('aria-label')!, (e as HTMLButtonElement).disabled] as const))).find(
        ([l, disabled]) => !disabled && l !== dateLabel,
      )![0];
    }
    await picker.getByRole('button', { name: pick, exact: true }).click();
    await picker.waitFor({ state: 'hidden' });
    await page.waitForURL((u) => u.searchParams.get('date') !== date);
    const picked = new URL(page.url()).searchParams.get('date')!;
    const slugs = ['sondag', 'mandag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lordag'];
    expect(new URL(page.url()).searchParams.get('weekday')).toBe(slugs[new Date(`${picked}T12:00:00Z`).getUTCDay()]);
    expect(await page.getByLabel('Veckodag').inputValue()).toBe(slugs[new Date(`${picked}T12:00:00Z`).getUTCDay()]);

    // Free-text search (case-insensitive, å/ä/ö) over venues.
    await page.getByRole('searchbox', { name: 'Sök' }).fill('KVARNEN QUIZ');
    await page.waitForURL((u) => u.searchParams.get('search') === 'KVARNEN QUIZ');
    await page.getByRole('button', { name: 'Kvarnen Quizbar', exact: true }).first().waitFor();
    await expect.poll(async () => (await shown(page))[1], { timeout: 15_000 }).toBe(1);

    // Detail dialog: a summary (when, where with directions, chips), the actions, then the rest.
    await page.getByRole('button', { name: 'Visa detaljer om Kvarnen Quizbar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Kvarnen Quizbar' });
    await dialog.waitFor();
    expect(await dialog.locator('time').textContent()).toMatch(/^\p{L}+dag \d{1,2} \p{L}+ kl\. \d{2}:\d{2}$/u);
    expect(await dialog.getByRole('link', { name: 'Vägbeskrivning' }).getAttribute('href')).toMatch(/^https:\/\/www\.google\.com\/maps\/dir\//);
    expect(await dialog.getByRole('list', { name: 'Om kvällen' }).getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    for (const text of ['Webbplats:', 'Quizmaster:']) expect(await dialog.getByText(text).count(), text).toBeGreaterThan(0);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Reloading the shared URL shows the same view.
    await page.reload();
    await hydrated(page);
    expect(await page.getByRole('searchbox', { name: 'Sök' }).inputValue()).toBe('KVARNEN QUIZ');
    await expect.poll(async () => (await shown(page))[1], { timeout: 15_000 }).toBe(1);

    // Load more on the full list.
    await page.goto('/?weekday=all');
    await hydrated(page);
    await expect.poll(async () => (await shown(page))[0], { timeout: 15_000 }).toBe(12);
    await page.getByRole('button', { name: 'Ladda fler quiz' }).click();
    await expect.poll(async () => (await shown(page))[0], { timeout: 15_000 }).toBeGreaterThanOrEqual(24);
    const ids = await page.locator('article[data-quiz-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-quiz-id')));
    expect(new Set(ids).size).toBe(ids.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Premium is a full-width card on top; Rekommenderat opens the prices dialog', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/?weekday=all&city=stockholm');
    const premium = page.getByRole('region', { name: 'Premium Utvald' });
    await premium.waitFor();
    expect(await premium.locator('article[data-tier="premium"]').count()).toBeGreaterThanOrEqual(1);
    const box = await premium.locator('article').first().boundingBox();
    const list = await page.getByRole('list', { name: 'Quiz' }).boundingBox();
    expect(box!.y).toBeLessThan(list!.y);
    expect(box!.width).toBeGreaterThan(list!.width * 0.95);

    await page.goto('/?weekday=all');
    await hydrated(page);
    const banner = page.getByRole('button', { name: 'Rekommenderat', exact: true }).first();
    await banner.waitFor();
    await banner.click();
    const prices = page.getByRole('dialog', { name: 'Marknadsför ditt quiz' });
    await prices.waitFor();
    await prices
      .getByText(/kr\/vecka/)
      .first()
      .waitFor();
    expect(await prices.getByRole('heading', { name: 'Premium Utvald' }).isVisible()).toBe(true);
    expect(await prices.textContent()).not.toMatch(/stripe/i);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('city, weekday, combined and venue pages; slugs with å/ä/ö redirect', async () => {
    const { page, errors, context } = await newPage(browser());
    const res = await page.goto('/quiz/g%C3%B6teborg');
    expect(new URL(page.url()).pathname).toBe('/quiz/goteborg');
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Quiz i Göteborg', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Kommande quizkvällar i Göteborg' }).waitFor();
    expect(await page.getByLabel('Stad').isDisabled()).toBe(true);
    await expectAccessible(page);

    await page.goto('/quiz/m%C3%A5ndag');
    expect(new URL(page.url()).pathname).toBe('/quiz/mandag');
    await page.getByRole('heading', { name: 'Quiz på måndag', level: 1 }).waitFor();

    await page.goto('/quiz/stockholm/tisdag');
    await page.getByRole('heading', { name: 'Quiz på tisdag i Stockholm', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Vanliga frågor' }).waitFor();
    expect(await page.getByText('I Stockholm finns quiz för alla').isVisible()).toBe(true);
    await expectAccessible(page);

    // A card links to its venue page.
    await page.goto('/quiz/stockholm');
    await hydrated(page);
    await page.getByRole('link', { name: 'Om Kvarnen Quizbar' }).first().click();
    await page.waitForURL((u) => u.pathname === '/quiz/stockholm/kvarnen-quizbar');
    await page.getByRole('heading', { name: 'Kvarnen Quizbar', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Besök hemsida' }).waitFor();
    await page.getByRole('heading', { name: 'Statistik' }).waitFor();
    await expectAccessible(page);

    const missing = await page.goto('/quiz/finns-inte-har');
    expect(missing?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Ops! Sidan hittades inte' }).waitFor();
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
    await context.close();
  });

  it('slow loading shows the skeleton; failures retry 3 times, then Försök igen recovers; /legacy adds Uppdatera sida', async () => {
    const { page, errors, context } = await newPage(browser(), { allowConsoleErrors: /Failed to load resource|ERR_FAILED/ });
    await page.goto('/legacy?weekday=all');
    await hydrated(page);
    await page.getByRole('heading', { name: 'Kommande quizkvällar' }).waitFor();
    // Slow answer: the skeleton appears after 300 ms.
    await page.route('**/api/listing?**', async (route) => {
      await new Promise((r) => setTimeout(r, 1200));
      await route.continue();
    });
    await page.getByLabel('Stad').selectOption('stockholm');
    const skeleton = page.locator('[aria-busy="true"][aria-label="Laddar quiz"]');
    await skeleton.waitFor();
    expect(await skeleton.locator('> div').first().locator('> div').count()).toBe(2);
    expect(await skeleton.locator('> div').nth(1).locator('> div').count()).toBe(6);
    await skeleton.waitFor({ state: 'hidden' });
    await page.unroute('**/api/listing?**');

    // Failing answers: automatic retries with back-off, then the final panel.
    let calls = 0;
    await page.route('**/api/listing?**', async (route) => {
      calls++;
      await route.abort();
    });
    await page.getByLabel('Stad').selectOption('goteborg');
    const alert = page.getByRole('alert').filter({ hasText: 'Ett fel uppstod vid laddning av quiz' });
    await alert.getByText('Försök 1/3 misslyckades.').waitFor();
    await alert.getByText('Försök 3/3 misslyckades.').waitFor({ timeout: 15_000 });
    await expect.poll(() => calls, { timeout: 10_000 }).toBe(4);
    await alert.getByText('Kontrollera din internetanslutning och försök igen.').waitFor();
    await alert.getByRole('button', { name: 'Uppdatera sida' }).waitFor();
    await page.unroute('**/api/listing?**');
    await alert.getByRole('button', { name: 'Försök igen' }).click();
    await alert.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await shown(page))[1], { timeout: 15_000 }).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with JavaScript disabled the city page still shows its quiz cards', async () => {
    const { page, context } = await newPage(browser(), { javaScriptEnabled: false });
    await page.goto('/quiz/stockholm');
    expect(await page.getByRole('heading', { name: 'Quiz i Stockholm' }).isVisible()).toBe(true);
    expect(await page.locator('article[data-quiz-id]').count()).toBeGreaterThan(0);
    expect(await page.getByText(COUNT_LINE).isVisible()).toBe(true);
    await context.close();
  });

  it('an unclaimed business offers signed-out visitors to take control, in a new tab', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/quiz/stockholm');
    await hydrated(page);
    const data = JSON.parse((await page.locator('#__DATA__').textContent())!);
    const unclaimed = data.result.items.find((i: any) => i.unclaimed);
    expect(unclaimed).toBeTruthy();
    const name = unclaimed.title || unclaimed.venue.name;
    await page.getByRole('button', { name: `Visa detaljer om ${name}` }).click();
    const link = page.getByRole('dialog').getByRole('link', { name: /Ta kontroll över verksamheten/ });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/register?takeoverVenue=${unclaimed.venue.id}`);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('feedback: sending shows the success toast and closes; too many from one client fail with the failure toast', async () => {
    const { page, errors, context } = await newPage(browser());
    // Its own client (newPage): the feedback limit counts this story's sends only.
    await page.goto('/');
    await hydrated(page);
    await page.getByRole('contentinfo').getByRole('button', { name: 'Lämna feedback' }).click();
    const dialog = page.getByRole('dialog', { name: 'Skicka feedback' });
    await dialog.waitFor();
    const send = dialog.getByRole('button', { name: 'Skicka feedback' });
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel('Kategori').selectOption('feature');
    await dialog.getByLabel('Rubrik').fill('Karta');
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel('Beskrivning').fill('Visa quizen på en karta.');
    await dialog.getByLabel('E-post (valfritt)').fill('besokare@example.se');
    expect(await send.isDisabled()).toBe(false);
    await send.click();
    await page.getByText('Feedback skickad framgångsrikt! Tack för din återkoppling.').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // Use up the client's allowance, then the form keeps its content and shows the failure toast.
    for (let i = 0; i < 10; i++) {
      await page.request.post('/api/feedback', { data: { category: 'other', title: `t${i}`, description: 'd' }, headers: { origin: baseURL() } });
    }
    await page.getByRole('contentinfo').getByRole('button', { name: 'Lämna feedback' }).click();
    await dialog.waitFor();
    await dialog.getByLabel('Kategori').selectOption('bug');
    await dialog.getByLabel('Rubrik').fill('En till');
    await dialog.getByLabel('Beskrivning').fill('Text');
    await dialog.getByRole('button', { name: 'Skicka feedback' }).click();
    await page.getByText('Kunde inte skicka feedback. Försök igen senare.').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel('Rubrik').inputValue()).toBe('En till');
    // The allowance is per client: other visitors (no such header) are not affected.
    const other = await fetch(`${baseURL()}/api/feedback`, {
      method: 'POST',
      body: JSON.stringify({ category: 'other', title: 'Annan besökare', description: 'd' }),
      headers: { origin: baseURL(), 'content-type': 'application/json' },
    });
    expect(other.status).toBe(201);
    expect(errors.filter((e) => !/429/.test(e))).toEqual([]);
    await context.close();
  });

  it('cards enter with a 100 ms stagger per index, and not at all with reduced motion (spec 01 §9)', async () => {
    const { page, context } = await newPage(browser());
    await page.goto('/quiz/stockholm');
    const cards = page.locator('article[data-quiz-id]');
    await cards.nth(2).waitFor();
    const style = (i: number) => cards.nth(i).evaluate((el) => ({ name: getComputedStyle(el).animationName, delay: getComputedStyle(el).animationDelay }));
    expect(await style(0)).toEqual({ name: 'card-enter', delay: '0s' });
    expect(await style(2)).toEqual({ name: 'card-enter', delay: '0.2s' });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect((await style(2)).name).toBe('none');
    await context.close();
  });

  it('plurals on the combined pages (issue 44.9): "1 ställe", never "1 ställen", in the description and the summary', async () => {
    const said: string[] = [];
    for (const w of WEEKDAYS) {
      const html = await (await fetch(`${baseURL()}/quiz/stockholm/${w.slug}`)).text();
      const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '';
      const chip = />(\d+ ställen?)</.exec(html)?.[1] ?? '';
      said.push(`${w.slug}: ${/\d+ ställen?/.exec(description)?.[0]} / ${chip}`);
    }
    // The demo data has a weekday with one place in Stockholm, so the singular is read at least once.
    expect(said.some((line) => line.includes('1 ställe /'))).toBe(true);
    expect(said.filter((line) => /(^|\D)1 ställen/.test(line))).toEqual([]);
  });

  it('the first card is on the first screen (issue 44.4): at 1280 × 800 on the start, city and combined pages, and on a phone', async () => {
    // A weekday with quizzes in Stockholm, for its combined page.
    const upcoming = (await (await fetch(`${baseURL()}/api/listing?city=stockholm&weekday=all`)).json()) as { items: Array<{ date: string }> };
    const weekday = WEEKDAYS[isoWeekday(upcoming.items[0]!.date) - 1]!.slug;
    const paths = ['/', '/quiz/stockholm', `/quiz/stockholm/${weekday}`];
    const tops: string[] = [];
    const below: string[] = [];
    for (const [viewport, js] of [
      [{ width: 1280, height: 800 }, true],
      [{ width: 1280, height: 800 }, false],
      [{ width: 390, height: 844 }, true],
    ] as const) {
      const { page, errors, context } = await newPage(browser(), { context: { viewport }, javaScriptEnabled: js });
      for (const path of paths) {
        await page.goto(path);
        if (js) await hydrated(page);
        const card = page.locator('article[data-quiz-id]').first();
        await card.waitFor();
        const top = Math.round((await card.boundingBox())!.y);
        const where = `${path} at ${viewport.width} × ${viewport.height}${js ? '' : ' without JavaScript'}: ${top} px`;
        tops.push(where);
        // The card's top, and its first lines (its name), are inside the viewport.
        if (top + 80 > viewport.height) below.push(where);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
    console.log(`first card's top:\n${tops.join('\n')}`);
    expect(below).toEqual([]);
  });

  it('no placeholder is cut off on a desktop (issue 44.9: the search field said "Sök ställe, plats eller quizm")', async () => {
    const { page, errors, context } = await newPage(browser());
    for (const width of [1024, 1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ['/', '/quiz/stockholm']) {
        await page.goto(path);
        await hydrated(page);
        // Each visible text input's placeholder, measured in its own font, against the room inside its padding.
        const cut = await page.evaluate(() => {
          const ctx = document.createElement('canvas').getContext('2d')!;
          return [...document.querySelectorAll<HTMLInputElement>('input[placeholder]')]
            .filter((i) => i.offsetParent !== null)
            .flatMap((i) => {
              const cs = getComputedStyle(i);
              ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
              const room = i.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight);
              const need = ctx.measureText(i.placeholder).width;
              return need > room ? [`${i.id || i.name}: ${Math.ceil(need)} px > ${Math.floor(room)} px`] : [];
            });
        });
        expect(cut, `${path} at ${width} px`).toEqual([]);
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
