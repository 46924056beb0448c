/**
 * The listing's count line (spec 01: 'Visar X av Y quiz'). When the total is a lower bound
 * (`totalAtLeast`: near mode in a dense area, or a filter combination whose total the listing does not
 * count — it stops reading after the page), a meaningful bound says "minst"; a bound that only says
 * "one more than shown" says that there are more.
 */
export function countLine(shown: number, total: number, totalAtLeast: boolean): string {
  if (!totalAtLeast) return `Visar ${shown} av ${total} quiz`;
  if (total > shown + 1) return `Visar ${shown} av minst ${total} quiz`;
  return `Visar ${shown} quiz – det finns fler`;
}
