import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';

export function BetaDialog({ open, onClose, onFeedback }: { open: boolean; onClose: () => void; onFeedback: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Quizkväll är i beta">
      <div className="space-y-3 text-slate-700">
        <p>Quizkväll är en ny tjänst och befinner sig fortfarande i betaversion. Det betyder att buggar och brister kan förekomma medan vi bygger vidare.</p>
        <p>Hittar du något som inte fungerar, eller saknar du något? Skicka gärna feedback – varje synpunkt hjälper oss att göra Quizkväll bättre.</p>
      </div>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Stäng
        </Button>
        <Button onClick={onFeedback}>Skicka feedback</Button>
      </div>
    </Dialog>
  );
}
