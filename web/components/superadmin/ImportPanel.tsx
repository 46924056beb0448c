import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import type { ImportJobView } from '../../../worker/features/admin/import-job-contract';
import { JOB_MAX_BYTES, JOB_MAX_ROWS } from '../../../worker/features/admin/import-job-contract';
import { ADMIN_ROOT } from '../../api/admin';
import {
  importJobPath as jobPath,
  useImportJob,
  useImportJobs,
  useImportReviews,
  useResolveReview,
  useResumeImport,
  useStartImport,
  useUploadImport,
} from '../../api/imports';
import { ApiError } from '../../lib/api';
import { ExportCatalogueLink } from '../exports/ExportCatalogueLink';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';

const COLUMNS = 'name, address, city, phone, website, weekday, start_time, pattern, category, theme, quizmaster, price, lat, lng';
const nf = (n: number) => n.toLocaleString('sv-SE');

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
  // undefined: nothing chosen yet (the newest started job is shown again); null: the panel was emptied.
  const [chosen, setChosen] = useState<string | null | undefined>(undefined);
  const [fileError, setFileError] = useState<string | null>(null);
  const jobs = useImportJobs();
  const latest = jobs.data?.jobs.find((j) => j.status !== 'uploaded')?.id ?? null;
  const jobId = chosen === undefined ? latest : chosen;
  const job: ImportJobView | null = useImportJob(jobId).data ?? null;
  const finished = !!job && (job.status === 'done' || job.status === 'failed');
  const reviews = useImportReviews(jobId, finished && (job?.counts.review ?? 0) > 0).data ?? [];
  const upload = useUploadImport();
  const start = useStartImport();
  const resume = useResumeImport();
  const resolveReview = useResolveReview();
  const busy = upload.isPending || start.isPending || resume.isPending;
  const failure = upload.error ?? start.error ?? resume.error;
  const error =
    fileError ??
    (failure ? (failure instanceof ApiError ? failure.message : upload.error ? 'Kunde inte läsa filen. Försök igen.' : 'Något gick fel. Försök igen.') : null);

  // Seen running, now done: tell the superadmin, and let their lists refetch (new businesses).
  const lastStatus = useRef<ImportJobView['status'] | null>(null);
  useEffect(() => {
    const was = lastStatus.current;
    lastStatus.current = job?.status ?? null;
    if (job && was === 'running' && job.status === 'done') {
      toast({ title: 'Importen är klar', description: `${nf(job.counts.created)} verksamheter skapade.`, variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: ADMIN_ROOT, predicate: (q) => q.queryKey[1] !== 'import' });
    }
  }, [job, queryClient]);

  function clear() {
    setChosen(null);
    setFileError(null);
    upload.reset();
    start.reset();
    resume.reset();
  }

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    clear();
    if (!file) return;
    if (file.size > JOB_MAX_BYTES) {
      setFileError(`Filen får vara högst ${JOB_MAX_BYTES / 1_000_000} MB.`);
      return;
    }
    try {
      setChosen((await upload.mutateAsync(file)).id);
    } catch {
      /* shown from upload.error */
    }
  }

  async function act(run: typeof start) {
    if (!job) return;
    try {
      await run.mutateAsync(job.id);
    } catch {
      /* shown from the mutation's error */
    }
  }

  async function resolve(rowNo: number, action: 'merge' | 'create') {
    if (!job) return;
    try {
      await resolveReview.mutateAsync({ id: job.id, rowNo, action });
    } catch (err) {
      toast({ title: 'Kunde inte spara', description: err instanceof ApiError ? err.message : 'Försök igen.', variant: 'destructive' });
    }
  }

  const pct = job?.totalRows ? Math.floor((job.processedRows / job.totalRows) * 100) : 0;
  const preview = job?.preview;

  return (
    <section aria-labelledby="import-heading" className="space-y-4">
      <h2 id="import-heading" className="text-2xl font-bold">
        Importera verksamheter
      </h2>
      <p className="text-slate-700">
        Ladda upp en CSV-fil (komma eller semikolon, UTF-8 eller Windows-1252) med en rad per quizkväll. Kolumner: <code className="text-sm">{COLUMNS}</code>.
        lat och lng är valfria. Högst {nf(JOB_MAX_ROWS)} rader. Verksamheterna blir ej övertagna (katalogkontot) med en återkommande quizserie var. Importen
        körs som ett jobb på servern – du kan stänga sidan och komma tillbaka.
      </p>
      <ExportCatalogueLink />
      <div>
        <label htmlFor={inputId} className="block text-sm font-semibold text-slate-800">
          CSV-fil
        </label>
        <input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void onFile(e)}
          disabled={busy || job?.status === 'running'}
          className="mt-1 block text-sm"
        />
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
                Kolumner: {preview.columns.map((c) => (c.column ? `${c.header} → ${c.column}` : `${c.header} (ignoreras)`)).join(', ')}
              </p>
              <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">De första raderna i filen</caption>
                  <thead className="bg-slate-100">
                    <tr>
                      <th scope="col" className="p-2">
                        Rad
                      </th>
                      <th scope="col" className="p-2">
                        Namn
                      </th>
                      <th scope="col" className="p-2">
                        Adress
                      </th>
                      <th scope="col" className="p-2">
                        Stad
                      </th>
                      <th scope="col" className="p-2">
                        Dag
                      </th>
                      <th scope="col" className="p-2">
                        Status
                      </th>
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
                        <td className="p-2">
                          {r.result === 'new' ? 'Ny' : r.result === 'duplicate' ? `Dubblett – ${r.message}` : <span className="text-red-800">{r.message}</span>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {preview.counts.invalid > 0 && <p className="text-sm text-slate-700">Rader med fel hoppas över och listas i rapporten.</p>}
              <div className="flex gap-3">
                <Button onClick={() => void act(start)} disabled={busy || preview.counts.new === 0}>
                  Importera
                </Button>
                <Button variant="secondary" onClick={clear} disabled={busy}>
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
                {nf(job.counts.created)} skapade · {nf(job.counts.duplicate)} dubbletter · {nf(job.counts.invalid)} med fel · {nf(job.counts.review)} att
                granska
              </p>
              {job.status === 'failed' && (
                <div role="alert" className="space-y-2 rounded-xl border border-red-300 bg-red-50 p-3 text-red-950">
                  <p>Importen avbröts{job.error ? `: ${job.error}` : ''}. Redan importerade rader importeras inte igen.</p>
                  <Button onClick={() => void act(resume)} disabled={busy}>
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
