import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../ui/Button';

/** Full-page fallback (spec 01 §2 "Fallback error screen"): no error details are shown. */
export function ErrorScreen({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-3xl font-extrabold">Något gick fel</h1>
      <p className="text-slate-700">Ett oväntat fel inträffade. Försök ladda om sidan. Kontakta supporten om problemet kvarstår.</p>
      <div className="flex gap-3">
        <Button onClick={onRetry}>Försök igen</Button>
        <Button variant="secondary" onClick={() => window.location.reload()}>
          Ladda om sidan
        </Button>
      </div>
    </div>
  );
}

/** Catches render errors below it and shows ErrorScreen; 'Försök igen' clears the error state. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('render error', error, info.componentStack);
  }
  override render() {
    return this.state.failed ? <ErrorScreen onRetry={() => this.setState({ failed: false })} /> : this.props.children;
  }
}
