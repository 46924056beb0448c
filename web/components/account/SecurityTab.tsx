/**
 * The 'Säkerhet' tab of the business profile editor (spec 02 §2.3): TOTP two-factor sign-in.
 * Enrol → QR code (uqr) and the key as text → confirm with a code; remove with the password.
 * Rendered by the venues work's profile editor; no props.
 */
import { useState, type FormEvent } from 'react';
import { renderSVG } from 'uqr';
import { useAccount, useConfirmTotp, useEnrolTotp, useRemoveTotp } from '../../api/account';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';
import { Spinner } from '../ui/Spinner';
import { toast } from '../ui/Toast';

export default function SecurityTab() {
  const { data, error } = useAccount();
  const enrol = useEnrolTotp();
  const confirmCode = useConfirmTotp();
  const removal = useRemoveTotp();
  const [password, setPassword] = useState('');
  const [enrolment, setEnrolment] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const busy = enrol.isPending || confirmCode.isPending || removal.isPending;

  if (error) return <p role="alert" className="text-red-700">{error.message}</p>;
  if (!data) return <Spinner label="Laddar säkerhetsinställningar..." />;

  async function run(action: () => Promise<void>) {
    setProblem(undefined);
    try {
      await action();
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : 'Ett oväntat fel inträffade');
    }
  }

  const start = (e: FormEvent) => {
    e.preventDefault();
    if (data.hasPassword && !password) return setProblem('Ange ditt lösenord.');
    void run(async () => {
      setEnrolment(await enrol.mutateAsync(data.hasPassword ? { password } : {}));
      setPassword('');
    });
  };
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) return setProblem('Koden består av 6 siffror');
    void run(async () => {
      await confirmCode.mutateAsync(code);
      toast({ title: 'Tvåstegsverifiering aktiverad', description: 'Nästa gång du loggar in frågar vi efter en kod från appen.', variant: 'success' });
      setEnrolment(null);
      setCode('');
    });
  };
  const remove = (e: FormEvent) => {
    e.preventDefault();
    if (data.hasPassword && !password) return setProblem('Ange ditt lösenord.');
    void run(async () => {
      await removal.mutateAsync(data.hasPassword ? { password } : {});
      toast({ title: 'Tvåstegsverifiering borttagen', variant: 'success' });
      setPassword('');
    });
  };

  const errorLine = problem && (
    <p role="alert" className="text-sm font-medium text-red-700">
      {problem}
    </p>
  );

  if (data.totpEnabled) {
    return (
      <form onSubmit={remove} className="space-y-3" noValidate>
        <h3 className="text-lg font-bold">Tvåstegsverifiering</h3>
        <p className="rounded-xl bg-emerald-50 p-3 text-emerald-950">Tvåstegsverifiering är aktiverad. Vid inloggning frågar vi efter en kod från din autentiseringsapp.</p>
        {data.hasPassword && <TextField label="Lösenord" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
        {errorLine}
        <Button type="submit" variant="danger" disabled={busy}>
          {busy ? 'Tar bort...' : 'Ta bort tvåstegsverifiering'}
        </Button>
      </form>
    );
  }

  if (enrolment) {
    const svg = renderSVG(enrolment.uri, { border: 2 });
    return (
      <form onSubmit={confirm} className="space-y-3" noValidate>
        <h3 className="text-lg font-bold">Skanna QR-koden</h3>
        <p className="text-sm text-slate-700">Skanna koden med din autentiseringsapp (till exempel Google Authenticator eller Microsoft Authenticator) och ange sedan den sexsiffriga koden som visas.</p>
        <img src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} alt="QR-kod för autentiseringsappen" width={192} height={192} className="h-48 w-48 rounded-lg border border-slate-200" />
        <p className="text-sm text-slate-700">
          Kan du inte skanna? Ange nyckeln manuellt: <code className="break-all rounded bg-slate-100 px-1 font-mono" data-testid="totp-secret">{enrolment.secret}</code>
        </p>
        <TextField label="Kod från appen" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} />
        {errorLine}
        <div className="flex gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? 'Verifierar...' : 'Bekräfta kod'}
          </Button>
          <Button variant="secondary" onClick={() => setEnrolment(null)} disabled={busy}>
            Avbryt
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form onSubmit={start} className="space-y-3" noValidate>
      <h3 className="text-lg font-bold">Tvåstegsverifiering</h3>
      <p className="text-sm text-slate-700">Skydda ditt konto med en kod från en autentiseringsapp utöver lösenordet.</p>
      {data.hasPassword && <TextField label="Lösenord" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
      {errorLine}
      <Button type="submit" disabled={busy}>
        {busy ? 'Startar...' : 'Aktivera tvåstegsverifiering'}
      </Button>
    </form>
  );
}
