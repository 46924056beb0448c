import type { ReactNode } from 'react';

export interface Crumb {
  label: string;
  /** Absent for the current page (the last crumb). */
  href?: string;
}

/**
 * The coloured band at the top of every public page: breadcrumbs (from "Start"), the h1, an optional
 * line below and actions. Compact on phones so the first quiz card is above the fold at 390 × 844, and low on a
 * desktop so it is there at 1280 × 800 too (issue 44.4).
 */
export function PageHero({
  title,
  crumbs,
  subtitle,
  children,
  size = 'page',
}: {
  title: ReactNode;
  crumbs?: Crumb[];
  subtitle?: ReactNode;
  children?: ReactNode;
  size?: 'home' | 'page';
}) {
  const home = size === 'home';
  return (
    <section className="bg-gradient-to-br from-brand-700 to-brand-800 text-white">
      <div className={`mx-auto max-w-6xl px-4 ${home ? 'py-5 sm:py-20 lg:py-10' : 'py-4 sm:py-10 lg:py-6'}`}>
        {crumbs && crumbs.length > 0 && (
          <nav aria-label="Brödsmulor" className="text-sm text-brand-100">
            <a href="/" className="underline">
              Start
            </a>
            {crumbs.map((c) => (
              <span key={c.href ?? c.label}>
                {' / '}
                {c.href ? (
                  <a href={c.href} className="underline">
                    {c.label}
                  </a>
                ) : (
                  <span>{c.label}</span>
                )}
              </span>
            ))}
          </nav>
        )}
        <h1 className={`font-extrabold tracking-tight ${home ? 'max-w-2xl text-3xl sm:text-5xl' : 'mt-1 text-3xl sm:mt-2 sm:text-4xl'}`}>{title}</h1>
        {subtitle && <p className={home ? 'mt-2 max-w-xl text-brand-100 sm:mt-4 sm:text-lg' : 'mt-1 text-brand-100 sm:mt-2'}>{subtitle}</p>}
        {children}
      </div>
    </section>
  );
}
