import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState, type ChangeEvent } from 'react';
import type { ImportJobView, ImportReviewItem } from '../../../worker/features/admin/import-job-contract';
import { JOB_MAX_BYTES, JOB_MAX_ROWS } from '../../../worker/features/admin/import-job-contract';
import { api, ApiError } from '../../lib/api';
import { ExportCatalogueLink } from '../exports/ExportCatalogueLink';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';

const COLUMNS = 'name, address, city, phone, website, weekday, start_time, pattern, category, theme, quizmaster, price, lat, lng';
const nf = (n: number) => n.toLocaleString('sv-SE');
const jobPath = (id: string, rest = '') => `/api/admin/import/jobs/${encodeURIComponent(id)}${rest}`;

/** Sends the file's bytes as they are (so the server can tell UTF-8 from Windows-1252). */
async function uploadFile(file: File): Promise<ImportJobView> {
  let res: Response;
  try {
    res = await fetch(`/api/admin/import/jobs?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', accept: 'application/json' },
      body: file,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network', 'Nätverksfel - kontrollera din internetanslutning');
  }
  const data = (await res.json().catch(() => null)) as (ImportJobView & { error?: { code: string; message: string } }) | null;
  if (!res.ok) throw new ApiError(res.status, data?.error?.code ?? 'http_error', data?.error?.message ?? 'Kunde inte läsa filen. Försök igen.');
  return data!;
}

const STATUS_TEXT: Record<ImportJobView['status'], string> = {
  uploaded: 'Förhandsgranskning',
  running: 'Importerar…',
  done: 'Klar',
  failed: 'Avbruten',
};

/**
 * CSV import as a durable job (issue 21): upload → preview (first rows, column mapping, counts) →
 * "Importera" starts the server-side job → a progress bar read from the job row (so it survives a
 * reload) → report CSV and the near-duplicates to review ("Slå ihop" / "Skapa ny").
 */
export function ImportPanel() {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [job, setJob] = useState<ImportJobView | null>(null);
  const [reviews, setReviews] = useState<ImportReviewItem[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const loadReviews = useCallback(async (id: string) => {
    try {
      setReviews((await api<{ reviews: ImportReviewItem[] }>(jobPath(id, '/reviews'))).reviews);
    } catch {
      /* the list is optional; the report has every row */
    }
  }, []);

  // After a reload: show the newest started job again (its progress, or its report when finished).
  useEffect(() => {
    let cancelled = false;
    void api<{ jobs: ImportJobView[] }>('/api/admin/import/jobs')
      .then(({ jobs }) => {
        const latest = jobs.find((j) => j.status !== 'uploaded') ?? null;
        if (!cancelled && latest) setJob((cur) => cur ?? latest);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);

  // Poll the job row while it runs.
  useEffect(() => {
    if (!job || job.status !== 'running') return;
    const t = setTimeout(async () => {
      try {
        const next = await api<ImportJobView>(jobPath(job.id));
        setJob(next);
        if (next.status === 'done') {
          toast({ title: 'Importen är klar', description: `${nf(next.counts.created)} verksamheter skapade.`, variant: 'success' });
          // New businesses: the superadmin lists refetch (every admin key starts with ['admin']).
          void queryClient.invalidateQueries({ queryKey: ['admin'] });
        }
      } catch {
        setJob({ ...job }); // try again on the next tick
      }
    }, 1000);
    return () => clearTimeout(t);
  }, [job, queryClient]);

  useEffect(() => {
    if (job && (job.status === 'done' || job.status === 'failed') && job.counts.review > 0) void loadReviews(job.id);
  }, [job?.id, job?.status, job?.counts.review, loadReviews]); // eslint-disable-line react-hooks/exhaustive-deps

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    setJob(null);
    setReviews([]);
    setError(null);
    if (!file) return;
    if (file.size > JOB_MAX_BYTES) {
      setError(`Filen får vara högst ${JOB_MAX_BYTES / 1_000_000} MB.`);
      return;
    }
    setBusy(true);
    try {
      setJob(await uploadFile(file));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Kunde inte läsa filen. Försök igen.');
    } finally {
      setBusy(false);
    }
  }

  async function act(path: string) {
    if (!job) return;
    setBusy(true);
    setError(null);
    try {
      setJob(await api<ImportJobView>(jobPath(job.id, path), { method: 'POST', body: {} }));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Något gick fel. Försök igen.');
    } finally {
      setBusy(false);
    }
  }

  async function resolve(rowNo: number, action: 'merge' | 'create') {
    if (!job) return;
    try {
      const item = await api<ImportReviewItem>(jobPath(job.id, `/reviews/${rowNo}`), { body: { action } });
      setReviews((rs) => rs.map((r) => (r.rowNo === rowNo ? item : r)));
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
    } catch (err) {
      toast({ title: 'Kunde inte spara', description: err instanceof ApiError ? err.message : 'Försök igen.', variant: 'destructive' });
    }
  }

  const pct = job && job.totalRows ? Math.floor((job.processedRows / job.totalRows) * 100) : 0;
  const preview = job?.preview;

  return (
    <section aria-labelledby="import-heading" className="space-y-4">
      <h2 id="import-heading" className="text-2xl font-bold">
        Importera verksamheter
      </h2>
      <p className="text-slate-700">
        Ladda upp en CSV-fil (komma eller semikolon, UTF-8 eller Windows-1252) med en rad per quizkväll. Kolumner: <code className="text-sm">{COLUMNS}</code>. lat och lng är
        valfria. Högst {nf(JOB_MAX_ROWS)} rader. Verksamheterna blir ej övertagna (katalogkontot) med en återkommande quizserie var. Importen körs som ett jobb på servern –
        du kan stänga sidan och komma tillbaka.
      </p>
      <ExportCatalogueLink />
      <div>
        <label htmlFor={inputId} className="block text-sm font-semibold text-slate-800">
          CSV-fil
        </label>
        <input id={inputId} type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e)} disabled={busy || job?.status === 'running'} className="mt-1 block text-sm" />
      </div>
      {busy && !job && <p role="status">Läser filen...</p>}
      {error && (
        <p role="alert" className="rounded-xl border border-red-300 bg-red-50 p-3 text-red-950">
          {error}
        </p>
      )}
      {job && preview && (
        <div className="space-y-3">
          <h3 className="text-lg font-bold">
            {job.fileName} · {STATUS_TEXT[job.status]}
          </h3>
          {job.status === 'uploaded' && (
            <>
              <p role="status" className="text-slate-800">
                {nf(job.totalRows)} rader · {nf(preview.counts.new)} nya · {nf(preview.counts.duplicate)} dubbletter · {nf(preview.counts.invalid)} med fel
                {job.encoding === 'windows-1252' ? ' · teckenkodning Windows-1252' : ''}
              </p>
              <p className="text-sm text-slate-700">
                Kolumner:{' '}
                {preview.columns.map((c) => (c.column ? `${c.header} → ${c.column}` : `${c.header} (ignoreras)`)).join(', ')}
              </p>
              <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">De första raderna i filen</caption>
                  <thead className="bg-slate-100">
                    <tr>
                      <th scope="col" className="p-2">Rad</th>
                      <th scope="col" className="p-2">Namn</th>
                      <th scope="col" className="p-2">Adress</th>
                      <th scope="col" className="p-2">Stad</th>
                      <th scope="col" className="p-2">Dag</th>
                      <th scope="col" className="p-2">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.rows.map((r) => (
                      <tr key={r.line} className={r.result === 'invalid' ? 'bg-red-50' : r.result === 'duplicate' ? 'bg-amber-50' : ''}>
                        <td className="p-2">{r.line}</td>
                        <td className="p-2">{r.name}</td>
                        <td className="p-2">{r.address}</td>
                        <td className="p-2">{r.city}</td>
                        <td className="p-2">{r.weekday}</td>
                        <td className="p-2">{r.result === 'new' ? 'Ny' : r.result === 'duplicate' ? `Dubblett – ${r.message}` : <span className="text-red-800">{r.message}</span>}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {preview.counts.invalid > 0 && <p className="text-sm text-slate-700">Rader med fel hoppas över och listas i rapporten.</p>}
              <div className="flex gap-3">
                <Button onClick={() => void act('/start')} disabled={busy || preview.counts.new === 0}>
                  Importera
                </Button>
                <Button variant="secondary" onClick={() => setJob(null)} disabled={busy}>
                  Avbryt
                </Button>
              </div>
            </>
          )}
          {job.status !== 'uploaded' && (
            <>
              <div
                role="progressbar"
                aria-label="Importförlopp"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={pct}
                className="h-4 w-full overflow-hidden rounded-full bg-slate-200"
              >
                <div className="h-full bg-emerald-600 transition-[width]" style={{ width: `${pct}%` }} />
              </div>
              <p role="status" data-testid="import-progress" className="text-slate-800">
                {nf(job.processedRows)} av {nf(job.totalRows)} rader ({pct} %)
              </p>
              <p className="text-sm text-slate-700">
                {nf(job.counts.created)} skapade · {nf(job.counts.duplicate)} dubbletter · {nf(job.counts.invalid)} med fel · {nf(job.counts.review)} att granska
              </p>
              {job.status === 'failed' && (
                <div role="alert" className="space-y-2 rounded-xl border border-red-300 bg-red-50 p-3 text-red-950">
                  <p>Importen avbröts{job.error ? `: ${job.error}` : ''}. Redan importerade rader importeras inte igen.</p>
                  <Button onClick={() => void act('/resume')} disabled={busy}>
                    Fortsätt importen
                  </Button>
                </div>
              )}
              {(job.status === 'done' || job.status === 'failed') && (
                <a href={jobPath(job.id, '/report')} download className="inline-block font-semibold text-emerald-800 underline">
                  Ladda ner rapport (CSV)
                </a>
              )}
            </>
          )}
          {reviews.length > 0 && (
            <div className="space-y-2">
              <h4 className="font-bold">Möjliga dubbletter att granska</h4>
              <ul className="space-y-2">
                {reviews.map((r) => (
                  <li key={r.rowNo} className="rounded-xl border border-amber-300 bg-amber-50 p-3">
                    <p>
                      Rad {r.rowNo}: <strong>{r.name}</strong>, {r.address}, {r.city}
                    </p>
                    <p className="text-sm text-slate-700">
                      {r.message}
                      {r.match ? ` – befintlig: ${r.match.name}${r.match.address ? `, ${r.match.address}` : ''}` : ''}
                    </p>
                    {r.resolved ? (
                      <p className="text-sm font-semibold">{r.resolved === 'merged' ? 'Sammanslagen' : 'Skapad som ny'}</p>
                    ) : (
                      <div className="mt-2 flex gap-2">
                        <Button onClick={() => void resolve(r.rowNo, 'merge')} disabled={!r.match}>
                          Slå ihop
                        </Button>
                        <Button variant="secondary" onClick={() => void resolve(r.rowNo, 'create')}>
                          Skapa ny
                        </Button>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
