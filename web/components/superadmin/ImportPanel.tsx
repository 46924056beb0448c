import { useId, useState, type ChangeEvent } from 'react';
import type { ImportPreview } from '../../../worker/features/admin/import-contract';
import { MAX_IMPORT_CHARS, MAX_IMPORT_ROWS } from '../../../worker/features/admin/import-contract';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';
import { useImportCommit, useImportPreview } from '../../api/admin';

const COLUMNS = 'name, address, city, phone, website, weekday, start_time, pattern, category, theme, quizmaster, price, lat, lng';

/** CSV import: upload → preview (per-row errors, duplicates) → confirm. Nothing is stored before confirm. */
export function ImportPanel() {
  const commit = useImportCommit();
  const analyse = useImportPreview();
  const busy = analyse.isPending || commit.isPending;
  const inputId = useId();
  const [csv, setCsv] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    setPreview(null);
    setError(null);
    if (!file) return;
    if (file.size > MAX_IMPORT_CHARS) {
      setError(`Filen får vara högst ${MAX_IMPORT_CHARS / 1000} kB.`);
      return;
    }
    const text = await file.text();
    setCsv(text);
    setFileName(file.name);
    try {
      setPreview(await analyse.mutateAsync(text));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Kunde inte läsa filen. Försök igen.');
    }
  }

  async function confirmImport() {
    if (!csv) return;
    try {
      const res = await commit.mutateAsync(csv);
      toast({
        title: `${res.created} verksamheter importerade`,
        description: `${res.quizzesCreated} quiz schemalagda${res.skippedDuplicates ? `, ${res.skippedDuplicates} dubbletter hoppades över` : ''}.`,
        variant: 'success',
      });
      setPreview(null);
      setCsv(null);
      setFileName('');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Importen misslyckades. Inget har sparats.');
    }
  }

  return (
    <section aria-labelledby="import-heading" className="space-y-4">
      <h2 id="import-heading" className="text-2xl font-bold">
        Importera verksamheter
      </h2>
      <p className="text-slate-700">
        Ladda upp en CSV-fil (komma eller semikolon) med en rad per quizkväll. Kolumner: <code className="text-sm">{COLUMNS}</code>. lat och lng är valfria. Högst {MAX_IMPORT_ROWS} rader. Verksamheterna blir ej övertagna (katalogkontot) med en
        återkommande quizserie var. Du ser en förhandsgranskning innan något sparas.
      </p>
      <div>
        <label htmlFor={inputId} className="block text-sm font-semibold text-slate-800">
          CSV-fil
        </label>
        <input id={inputId} type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e)} disabled={busy} className="mt-1 block text-sm" />
      </div>
      {busy && !preview && <p role="status">Läser filen...</p>}
      {error && (
        <p role="alert" className="rounded-xl border border-red-300 bg-red-50 p-3 text-red-950">
          {error}
        </p>
      )}
      {preview && (
        <div className="space-y-3">
          <h3 className="text-lg font-bold">Förhandsgranskning av {fileName}</h3>
          <p role="status" className="text-slate-800">
            {preview.summary.total} rader · {preview.summary.invalid} med fel · {preview.summary.duplicates} dubbletter · {preview.summary.toImport} att importera
          </p>
          {preview.fileErrors.length > 0 && (
            <ul role="alert" className="list-inside list-disc rounded-xl border border-red-300 bg-red-50 p-3 text-red-950">
              {preview.fileErrors.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          )}
          {preview.rows.length > 0 && (
            <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Rader i filen</caption>
                <thead className="bg-slate-100">
                  <tr>
                    <th scope="col" className="p-2">Rad</th>
                    <th scope="col" className="p-2">Namn</th>
                    <th scope="col" className="p-2">Adress</th>
                    <th scope="col" className="p-2">Stad</th>
                    <th scope="col" className="p-2">Dag och tid</th>
                    <th scope="col" className="p-2">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.rows.map((r) => (
                    <tr key={r.line} className={r.errors.length ? 'bg-red-50' : r.duplicate ? 'bg-amber-50' : ''}>
                      <td className="p-2">{r.line}</td>
                      <td className="p-2">{r.name}</td>
                      <td className="p-2">{r.address}</td>
                      <td className="p-2">{r.city}</td>
                      <td className="p-2">
                        {r.weekday} {r.startTime}
                      </td>
                      <td className="p-2">
                        {r.errors.length ? (
                          <ul className="text-red-800">
                            {r.errors.map((m) => (
                              <li key={m}>{m}</li>
                            ))}
                          </ul>
                        ) : r.duplicate === 'db' ? (
                          'Dubblett – finns redan'
                        ) : r.duplicate === 'file' ? (
                          'Dubblett i filen'
                        ) : (
                          'OK'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {preview.summary.invalid > 0 && <p className="font-medium text-red-800">Rätta felen i filen och ladda upp den igen. Inget sparas förrän alla rader är giltiga.</p>}
          <div className="flex gap-3">
            <Button onClick={() => void confirmImport()} disabled={!preview.canImport || busy}>
              {busy ? 'Importerar...' : `Importera ${preview.summary.toImport} verksamheter`}
            </Button>
            <Button variant="secondary" onClick={() => { setPreview(null); setCsv(null); }} disabled={busy}>
              Avbryt
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
