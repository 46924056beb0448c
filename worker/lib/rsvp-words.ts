/**
 * "Vi kommer" (issue 47): the words cards, dialogs and pages show for an occurrence's figures. Zod-free, so the
 * public bundle can import it (listed in tsconfig.shared.json).
 */

/** "12 lag kommer" (never names). */
export function teamsText(teams: number): string {
  return `${teams} lag kommer`;
}

/** "3 bord kvar", "Fullt", or null without a capacity. */
export function tablesText(tablesLeft: number | null | undefined): string | null {
  if (tablesLeft === null || tablesLeft === undefined) return null;
  return tablesLeft <= 0 ? 'Fullt' : `${tablesLeft} bord kvar`;
}

/** The button: "Vi kommer", or "Ställ dig i kö" when no table is left. */
export function rsvpButtonText(full: boolean | null | undefined): string {
  return full ? 'Ställ dig i kö' : 'Vi kommer';
}

/** A card's line, "3 lag kommer · 2 bord kvar", or null when there is nothing to say (no teams, no capacity). */
export function figuresLine(f: { teams?: number | undefined; tablesLeft?: number | null | undefined }): string | null {
  const parts = [f.teams ? teamsText(f.teams) : null, tablesText(f.tablesLeft)].filter((p): p is string => !!p);
  return parts.length ? parts.join(' · ') : null;
}
