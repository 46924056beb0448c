import type { ReactNode } from 'react';
import { Button } from './Button';
import { Dialog } from './Dialog';

/**
 * A yes/no confirmation on the accessible Dialog (deleting cannot be undone, spec 02 §4.4). While
 * `busy` both buttons are disabled and the confirm button shows `busyLabel` when given.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  busyLabel,
  busy,
  danger = true,
  onConfirm,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  busy?: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description} size="sm">
      {children && <div className="space-y-4 text-slate-700">{children}</div>}
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Avbryt
        </Button>
        <Button variant={danger ? 'danger' : 'primary'} disabled={busy} onClick={onConfirm}>
          {busy && busyLabel ? busyLabel : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
