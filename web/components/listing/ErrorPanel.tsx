import { Button } from '../ui/Button';
import { MAX_RETRIES } from './useListingLoader';

/** The listing's load failure (spec 01 §9): which attempt failed, automatic retries, "Försök igen". */
export function ErrorPanel({
  variant,
  failures,
  retrying,
  onRetry,
}: {
  variant: 'default' | 'legacy' | 'combined';
  failures: number;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-5 text-red-900">
      {variant === 'combined' ? (
        <>
          <p className="font-bold">Ett fel uppstod</p>
          <p className="mt-1">Kunde inte ladda quiz-data. Försök igen senare.</p>
        </>
      ) : (
        <>
          <p className="font-bold">Ett fel uppstod vid laddning av quiz</p>
          <p className="mt-1">
            Försök {failures}/{MAX_RETRIES} misslyckades.
          </p>
          {variant === 'legacy' && <p className="mt-1">Kontrollera din internetanslutning och försök igen.</p>}
        </>
      )}
      {retrying && <p className="mt-1 text-sm">Försöker igen automatiskt...</p>}
      <div className="mt-3 flex gap-2">
        <Button onClick={onRetry}>Försök igen</Button>
        {variant === 'legacy' && (
          <Button variant="secondary" onClick={() => window.location.reload()}>
            Uppdatera sida
          </Button>
        )}
      </div>
    </div>
  );
}
