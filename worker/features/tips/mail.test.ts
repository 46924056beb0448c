import { describe, expect, it } from 'vitest';
import { tipPublishedMail } from './mail';

describe('tipPublishedMail', () => {
  it('escapes every interpolated value in the HTML part and carries the RFC 8058 headers', () => {
    const hostile = `<img src=x onerror=alert(1)> "Bar" & 'Pub'`;
    const m = tipPublishedMail('a@example.se', {
      venueName: hostile,
      page: 'https://quizkvall.se/quiz/x/y?a=1&b="2"',
      stop: 'https://quizkvall.se/tipsa/stopp?t=abc',
    });
    expect(m.html).not.toContain('<img');
    expect(m.html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Bar&quot; &amp; &#39;Pub&#39;');
    expect(m.html).toContain('href="https://quizkvall.se/quiz/x/y?a=1&amp;b=&quot;2&quot;"');
    expect(m.text).toContain(hostile);
    expect(m.headers).toEqual({ 'List-Unsubscribe': '<https://quizkvall.se/tipsa/stopp?t=abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
});
