/**
 * The owner's note that a quiz or series lacks its price or category (issue 44.3): a tip or a synced calendar
 * says nothing of them, so visitors see "Pris ej angivet" and no category badge until the owner fills them in.
 */
export function MissingFacts({ price, category, className = '' }: { price: number | null; category: string | null; className?: string }) {
  const noPrice = price == null;
  const noCategory = !category?.trim();
  if (!noPrice && !noCategory) return null;
  const what = noPrice && noCategory ? 'Pris och kategori saknas' : noPrice ? 'Pris saknas' : 'Kategori saknas';
  return (
    <p className={`rounded-lg bg-amber-50 px-2 py-1 text-sm font-semibold text-amber-900 ${className}`}>
      {what}: besökarna ser {noPrice ? '”Pris ej angivet”' : 'ingen kategori'}. Fyll i under Redigera.
    </p>
  );
}
