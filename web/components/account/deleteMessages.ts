import { ApiError } from '../../lib/api';

/** Spec 02 §8 "Delete user" messages. */
export function deleteErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 401 || err.status === 403) return 'Du har inte behörighet att ta bort denna användare.';
    if (err.status === 404) return 'Användaren kunde inte hittas. Kontot kan redan ha tagits bort.';
    if (err.status >= 500) return 'Serverfel vid radering. Kontrollera att du har behörighet.';
    if (err.message) return `Fel: ${err.message}`;
  }
  return 'Kunde inte ta bort användaren. Försök igen.';
}
