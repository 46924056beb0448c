/** The link to "Tipsa om ett quiz" (issue 31.1) on empty listings and city pages. Plain link: no JavaScript needed. */
export function TipPrompt({ city, className = 'mt-3 text-slate-700' }: { city?: string | undefined; className?: string }) {
  return (
    <p className={className}>
      {city ? `Saknas ett quiz i ${city}?` : 'Vet du ett quiz som saknas?'}{' '}
      <a href="/tipsa" className="font-semibold text-brand-700 underline">
        Tipsa om ett quiz
      </a>
    </p>
  );
}
