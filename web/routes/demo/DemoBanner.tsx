export function DemoBanner() {
  return (
    <p role="note" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950">
      Demosida med exempeldata – inget här sparas eller debiteras.
    </p>
  );
}
