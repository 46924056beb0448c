import { lazy, Suspense, useEffect, useState } from 'react';

const FeedbackForm = lazy(() => import('./FeedbackForm'));

/**
 * The feedback dialog (spec 01 §2). The form and its shared zod contract (client and server validate
 * with the same FeedbackSchema) are fetched the first time the dialog opens and then stay mounted.
 */
export function FeedbackDialog({ open, onClose, signedIn }: { open: boolean; onClose: () => void; signedIn: boolean }) {
  const [wanted, setWanted] = useState(open);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);
  if (!wanted && !open) return null;
  return (
    <Suspense fallback={null}>
      <FeedbackForm open={open} onClose={onClose} signedIn={signedIn} />
    </Suspense>
  );
}
