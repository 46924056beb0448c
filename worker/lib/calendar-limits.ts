/**
 * How much of the internet one calendar address may cost (issue 31.2, docs/jobs.md): the fetch port enforces these
 * and the calendar-sync contract quotes them in its Swedish messages. A constant module of its own, so the port
 * needs nothing of the feature (issue 45.2).
 */
/** A calendar larger than this is refused (the download stops there). */
export const MAX_FEED_BYTES = 1_000_000;
/** The whole download (headers and body) must finish within this. */
export const FEED_TIMEOUT_MS = 10_000;
