import { describe, expect, it } from 'vitest';
import { expectAccessible, newPage, sharedBrowser } from './support/browser';

describe('web shell', () => {
  const browser = sharedBrowser();

  it('start page is Swedish, accessible, and has header, hero and footer', async () => {
    const { page, errors, context } = await newPage(browser());
    const res = await page.goto('/');
    expect(res?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    await expect.poll(() => page.getByRole('heading', { name: 'Upptäck quizkvällar i din stad' }).isVisible()).toBe(true);
    expect(await page.getByText('Upptäck lokala quiz').first().isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Logga in' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Registrera' }).isVisible()).toBe(true);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('every SPA screen names itself in the tab (issue 44.9), signed out, and a wrong address says so', async () => {
    const { page, errors, context } = await newPage(browser());
    for (const [path, title] of [
      ['/login', 'Logga in | Quizkväll'],
      ['/register', 'Skapa konto | Quizkväll'],
      ['/forgot-password', 'Glömt lösenordet | Quizkväll'],
      ['/tipsa', 'Tipsa om ett quiz | Quizkväll'],
      ['/finns-inte-alls', 'Sidan hittades inte | Quizkväll'],
    ]) {
      await page.goto(path!);
      await expect.poll(() => page.title()).toBe(title);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the accessibility check fails on a serious violation, in the page and in an iframe; a frame that never loads is left out', async () => {
    const { page, errors, context } = await newPage(browser());
    // Each case on a fresh document at the app's origin, as every checked page is (setContent keeps the address;
    // a new document, because document.open() would drop the listeners axe answers its frames with).
    const show = async (body: string) => {
      await page.goto('/robots.txt');
      await page.setContent(`<!doctype html><html lang="sv"><head><title>Prov</title></head><body><main>${body}</main></body></html>`);
    };
    // image-alt is critical: a picture without a text alternative.
    const picture = '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">';
    await show('<h1>Prov</h1><p>Inget fel här.</p>');
    await expectAccessible(page);
    await show(picture);
    await expect(expectAccessible(page)).rejects.toHaveProperty('actual', [expect.stringMatching(/^image-alt: /)]);
    await show(`<h1>Prov</h1><iframe title="Förhandsvisning" srcdoc="${picture.replaceAll('"', '&quot;')}"></iframe>`);
    await page.frames()[1]!.waitForLoadState();
    await expect(expectAccessible(page)).rejects.toHaveProperty('actual', [expect.stringMatching(/^image-alt: /)]);
    // A lazy iframe that is not shown has no document yet and never answers: the check leaves it out instead of hanging.
    await show('<h1>Prov</h1><div hidden><iframe title="Förhandsvisning" loading="lazy" src="/robots.txt"></iframe></div>');
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Beta badge opens the beta dialog, whose button opens the feedback dialog; Escape closes', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/');
    await page.getByRole('button', { name: 'Beta' }).click();
    const beta = page.getByRole('dialog', { name: 'Quizkväll är i beta' });
    await beta.waitFor();
    expect(await beta.getByText('buggar').isVisible()).toBe(true);
    await beta.getByRole('button', { name: 'Skicka feedback' }).click();
    const feedback = page.getByRole('dialog', { name: 'Skicka feedback' });
    await feedback.waitFor();
    expect(await beta.isVisible()).toBe(false);
    await page.keyboard.press('Escape');
    await feedback.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('each footer information dialog opens and closes', async () => {
    const { page, errors, context } = await newPage(browser());
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const name of ['Om skaparen', 'Varför Quizkväll?', 'Cookies och integritet', 'Varför finns min verksamhet redan här?']) {
      await footer.getByRole('button', { name }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Stäng' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
    await footer.getByRole('button', { name: 'Lämna feedback' }).click();
    await page.getByRole('dialog', { name: 'Skicka feedback' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('unknown SPA path shows the 404 page', async () => {
    const { page, context } = await newPage(browser());
    await page.goto('/finns-inte-alls');
    await page.getByRole('heading', { name: 'Ops! Sidan hittades inte' }).waitFor();
    await page.getByRole('link', { name: 'Tillbaka hem' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });
});
