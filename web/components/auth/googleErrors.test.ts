import { describe, expect, it } from 'vitest';
import { googleErrorText } from './googleErrors';

describe('googleErrorText (the texts /login and /register showed before they shared the block)', () => {
  it('login', () => {
    expect(googleErrorText('login', 'google_failed')).toEqual(['Google-inloggning misslyckades', 'Försök igen eller logga in med e-post och lösenord.']);
    expect(googleErrorText('login', 'google_register_failed')).toEqual([
      'Google-registrering misslyckades',
      'Försök igen eller registrera dig med e-post och lösenord.',
    ]);
    expect(googleErrorText('login', 'google_unavailable')).toEqual(['Google-inloggning misslyckades', 'Google-inloggning är inte tillgänglig här.']);
  });
  it('register', () => {
    const failed = ['Google-registrering misslyckades', 'Försök igen eller registrera dig med e-post och lösenord.'];
    expect(googleErrorText('register', 'google_failed')).toEqual(failed);
    expect(googleErrorText('register', 'google_register_failed')).toEqual(failed);
    expect(googleErrorText('register', 'google_unavailable')).toEqual(['Google-registrering misslyckades', 'Google-inloggning är inte tillgänglig här.']);
  });
  it('anything else: no toast', () => {
    expect(googleErrorText('login', null)).toBeNull();
    expect(googleErrorText('register', 'invalid_state')).toBeNull();
  });
});
