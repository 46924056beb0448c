import { buttonClass } from '../ui/Button';

/** /account: "Ladda ner mina data" — the account's own data as a JSON file (GDPR art. 20). */
export function DownloadMyData() {
  return (
    <section aria-labelledby="my-data-heading" className="mt-8 rounded-2xl border border-slate-200 bg-white p-6">
      <h2 id="my-data-heading" className="text-lg font-bold">
        Dina data
      </h2>
      <p className="mt-1 text-slate-700">Hämta allt vi har sparat om ditt konto, dina verksamheter, platser, quiz och beställningar som en JSON-fil.</p>
      <a href="/api/exports/me" download className={`${buttonClass('secondary')} mt-3 inline-flex`}>
        Ladda ner mina data
      </a>
    </section>
  );
}
