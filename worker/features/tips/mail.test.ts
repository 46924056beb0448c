import { describe, expect, it } from 'vitest';
import { TIP_PUBLISHED_SUBJECT, tipPublishedMail } from './mail';

describe('tipPublishedMail', () => {
  it('fixed texts, the escaped links and the RFC 8058 headers; nothing else goes in', () => {
    const m = tipPublishedMail('a"<b>@example.se', {
      page: 'https://quizkvall.se/tipsa/visa?t=a&b="2"',
      stop: 'https://quizkvall.se/tipsa/stopp?t=abc',
    });
    expect(m.subject).toBe(TIP_PUBLISHED_SUBJECT);
    expect(m.html).not.toContain('<b>');
    expect(m.html).toContain('href="https://quizkvall.se/tipsa/visa?t=a&amp;b=&quot;2&quot;"');
    expect(m.text).toContain('https://quizkvall.se/tipsa/visa?t=a&b="2"');
    expect(m.headers).toEqual({ 'List-Unsubscribe': '<https://quizkvall.se/tipsa/stopp?t=abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
});
