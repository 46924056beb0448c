/**
 * The one serializer for JSON embedded in HTML (JSON-LD and the hydration data). Escapes <, >, &,
 * U+2028 and U+2029 so no text from the database can close the <script> element or break parsing.
 */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
