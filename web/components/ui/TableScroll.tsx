import type { ReactNode } from 'react';

/**
 * A table wider than a phone scrolls sideways inside its own box, never the page (issue 44.8); the box is a named
 * region that takes focus, so a keyboard can scroll it too (axe: scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to be scrolled
    <section aria-label={label} tabIndex={0} className="overflow-x-auto rounded-xl">
      {children}
    </section>
  );
}
