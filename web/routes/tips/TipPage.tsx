/** /tipsa — "Tipsa om ett quiz" (issue 31.1): anyone, no account. */
import { TipForm } from '../../components/tips/TipForm';

export default function TipPage() {
  return (
    <div className="mx-auto max-w-xl space-y-6 px-4 py-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-extrabold">Tipsa om ett quiz</h1>
        <p className="text-slate-700">Känner du till en quizkväll som saknas här? Berätta var och när, så lägger vi upp den efter en snabb koll.</p>
      </div>
      <TipForm />
    </div>
  );
}
