/** The toast text for a failed Google round trip (?error=… on /login and /register, spec 01 §8). */
export function googleErrorText(mode: 'login' | 'register', code: string | null): [title: string, description: string] | null {
  if (code !== 'google_failed' && code !== 'google_register_failed' && code !== 'google_unavailable') return null;
  // A registration attempt speaks of registration, also when it comes back to /login.
  const registering = mode === 'register' || code === 'google_register_failed';
  const title = registering ? 'Google-registrering misslyckades' : 'Google-inloggning misslyckades';
  if (code === 'google_unavailable') return [title, 'Google-inloggning är inte tillgänglig här.'];
  return [title, registering ? 'Försök igen eller registrera dig med e-post och lösenord.' : 'Försök igen eller logga in med e-post och lösenord.'];
}
