/**
 * URL slugs: lower-case ASCII, å and ä → a, ö → o (and other accents stripped), spaces → hyphens.
 * `goteborg`, `malmo`, `vasteras`. Displayed names always come from the data, never from a slug.
 */
export function slugify(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/[åä]/g, 'a')
    .replace(/ö/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
