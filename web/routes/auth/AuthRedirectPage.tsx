/** /auth-redirect (spec 01 §2): 'Verifierar användartyp...' then 'Omdirigerar...'. */
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { destinationFor } from '../../components/auth/messages';
import { Spinner } from '../../components/ui/Spinner';
import { useSession } from '../../lib/session';

export default function AuthRedirectPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [label, setLabel] = useState('Verifierar användartyp...');
  useEffect(() => {
    if (session.status === 'loading') return;
    const user = session.status === 'ready' ? session.session.user : null;
    setLabel('Omdirigerar...');
    const target = user ? destinationFor(user, params.get('redirect')) : '/login';
    const t = setTimeout(() => navigate(target, { replace: true }), 300);
    return () => clearTimeout(t);
  }, [session, navigate, params]);
  return <Spinner label={label} />;
}
