/**
 * The one password rule (spec 01 §5, spec 02 §5) and every text that quotes it, so that a change of the minimum
 * changes the contracts, the server's messages and the forms' hints together (issue 45.5). Imported by the auth and
 * accounts contracts and by the web forms; no runtime dependencies.
 */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 200;

/** Registration and password reset (spec 01 quotes this text). */
export const PASSWORD_TOO_SHORT = `Lösenordet måste vara minst ${PASSWORD_MIN} tecken långt`;
/** The profile's change of password (spec 02 quotes this text). */
export const PASSWORD_TOO_SHORT_PROFILE = `Lösenordet måste vara minst ${PASSWORD_MIN} tecken.`;
/** The hint under every new-password field. */
export const PASSWORD_HINT = `Minst ${PASSWORD_MIN} tecken.`;
