/** The address of the last registration in this browser, so an expired link can be resent without retyping. */
const KEY = 'qk_pending_email';

export function rememberPendingEmail(email: string): void {
  try {
    localStorage.setItem(KEY, email);
  } catch {
    /* storage may be unavailable */
  }
}

export function pendingEmail(): string {
  try {
    return localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function forgetPendingEmail(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    /* storage may be unavailable */
  }
}
