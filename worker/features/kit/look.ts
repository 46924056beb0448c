/**
 * The owner kit's colours (issue 48.7), shared by the PDFs (renderer.ts) and the Instagram images (images.tsx), and
 * the WCAG 2.x contrast check its unit test runs on every text/background pair the kit draws (AA: 4.5 : 1 for
 * text; every kit text is held to that, large or not). Pure: no imports.
 */
export const KIT_COLORS = {
  /** Deep indigo: the brand, as the share cards (share/card.tsx). */
  ink: '#1e1b4b',
  indigo: '#312e81',
  white: '#ffffff',
  /** Light lilac: secondary text on indigo. */
  lilac: '#c7d2fe',
  /** Amber: the brand mark and the first date on indigo. */
  amber: '#fbbf24',
  paleAmber: '#fde68a',
  /** Dark grey: body text on white paper. */
  slate: '#334155',
} as const;
export type KitColor = keyof typeof KIT_COLORS;

/** Every (text, background) pair the kit draws. The unit test holds each to WCAG AA. */
export const KIT_TEXT_PAIRS: ReadonlyArray<readonly [text: KitColor, background: KitColor]> = [
  ['white', 'indigo'],
  ['white', 'ink'],
  ['lilac', 'indigo'],
  ['lilac', 'ink'],
  ['paleAmber', 'indigo'],
  ['paleAmber', 'ink'],
  ['ink', 'amber'],
  ['ink', 'white'],
  ['indigo', 'white'],
  ['slate', 'white'],
];

/** `#rrggbb` → [r, g, b] in 0..1. */
export function rgbOf(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [parseInt(m[1]!, 16) / 255, parseInt(m[2]!, 16) / 255, parseInt(m[3]!, 16) / 255];
}

/** WCAG 2.x relative luminance. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio, 1..21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG AA for normal text. */
export const WCAG_AA_TEXT = 4.5;
