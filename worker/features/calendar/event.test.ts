import { describe, expect, it } from 'vitest';
import { eventText, eventUid, feedEnd, googleCalendarUrl, webcalUrl, type CalendarQuiz } from './event';

const quiz = (over: Partial<CalendarQuiz> = {}): CalendarQuiz => ({
  id: 'q1',
  date: '2026-10-20',
  startTime: '19:00:00',
  category: 'tema',
  theme: 'Musik',
  quizmaster: 'Ada',
  teamSize: 6,
  price: null,
  isCancelled: false,
  location: { name: 'Puben', address: 'Storgatan 1', city: 'Göteborg', citySlug: 'goteborg', latitude: 57.7, longitude: 11.97 },
  venue: { name: 'Puben', slug: 'puben' },
  ...over,
});

describe('calendar event text', () => {
  it('an English or bilingual quiz says its language; a Swedish one (the default) says nothing (issue 31.3)', () => {
    const line = (language: string | null | undefined) =>
      eventText(quiz({ language }), '')
        .description.split('\n')
        .find((l) => l.startsWith('Språk:'));
    expect(line('en')).toBe('Språk: På engelska');
    expect(line('both')).toBe('Språk: Svenska och engelska');
    expect(line('sv')).toBeUndefined();
    expect(line(undefined)).toBeUndefined();
  });

  it('19:00 Stockholm is 17:00Z in summer time and 18:00Z in winter time; 2 h 30 min long', () => {
    expect(eventText(quiz({ date: '2026-10-20' }), 'https://q.se').start.toISOString()).toBe('2026-10-20T17:00:00.000Z');
    const winter = eventText(quiz({ date: '2026-10-27' }), 'https://q.se');
    expect(winter.start.toISOString()).toBe('2026-10-27T18:00:00.000Z');
    expect(winter.end.toISOString()).toBe('2026-10-27T20:30:00.000Z');
    expect(eventText(quiz({ startTime: null, date: '2027-01-05' }), '').start.toISOString()).toBe('2027-01-05T18:00:00.000Z');
  });

  it('summary, location, description and URL', () => {
    const e = eventText(quiz({ isCancelled: true }), 'https://q.se');
    expect(e.uid).toBe(eventUid('q1'));
    expect(e.uid).toBe('q1@quizkvall.se');
    expect(e.summary).toBe('Pubquiz på Puben');
    expect(e.locationTitle).toBe('Puben');
    expect(e.locationAddress).toBe('Storgatan 1, Göteborg');
    expect(e.url).toBe('https://q.se/quiz/goteborg/puben');
    expect(e.description.split('\n').slice(0, 5)).toEqual([
      'INSTÄLLT',
      'Kategori: Tema: Musik',
      'Pris: Pris ej angivet',
      'Quizmaster: Ada',
      'Max lagstorlek: 6 personer',
    ]);
    expect(e.geo).toEqual({ lat: 57.7, lon: 11.97 });
    const free = eventText(quiz({ price: 0 }), '').description.split('\n');
    expect(free).toContain('Pris: Gratis');
    expect(eventText(quiz({ location: { ...quiz().location, latitude: null } }), '').geo).toBeNull();
  });

  it('Google Kalender link carries the same event in UTC', () => {
    const url = new URL(googleCalendarUrl(quiz({ date: '2026-10-27' }), 'https://q.se'));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(url.searchParams.get('action')).toBe('TEMPLATE');
    expect(url.searchParams.get('text')).toBe('Pubquiz på Puben');
    expect(url.searchParams.get('dates')).toBe('20261027T180000Z/20261027T203000Z');
    expect(url.searchParams.get('location')).toBe('Puben, Storgatan 1, Göteborg');
  });

  it('webcal links and the feed window', () => {
    expect(webcalUrl('https://quizkvall.se/api/calendar/city/goteborg.ics')).toBe('webcal://quizkvall.se/api/calendar/city/goteborg.ics');
    expect(webcalUrl('http://localhost:8787/x.ics')).toBe('webcal://localhost:8787/x.ics');
    expect(feedEnd('2026-10-10')).toBe('2026-12-04');
  });
});

describe('unknown facts in the event text (issue 44.3)', () => {
  it('an unknown category has no line and an unknown price says "Pris ej angivet", never Gratis', () => {
    const lines = eventText(quiz({ category: null, theme: null, price: null }), '').description.split('\n');
    expect(lines.some((l) => l.startsWith('Kategori:'))).toBe(false);
    expect(lines).toContain('Pris: Pris ej angivet');
    expect(lines.join('\n')).not.toContain('Gratis');
  });
});
