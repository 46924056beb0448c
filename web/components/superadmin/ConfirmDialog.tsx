import type { ReactNode } from 'react';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';

/** A yes/no confirmation; the confirm button is disabled while `busy`. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={props.open} onClose={props.onClose} title={props.title} size="sm">
      <div className="space-y-4 text-slate-700">{props.children}</div>
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={props.onClose} disabled={props.busy}>
          Avbryt
        </Button>
        <Button variant="danger" onClick={props.onConfirm} disabled={props.busy}>
          {props.busy ? 'Tar bort...' : props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
