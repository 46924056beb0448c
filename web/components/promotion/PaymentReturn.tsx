/**
 * SEAM (owned by the promotion work of issue 6): mounted once on the owner dashboard; reads
 * ?payment=success|cancelled|failed&session_id=… itself, verifies, shows the result dialogs and cleans
 * the URL. Calls onPaid() so the dashboard reloads its data. Replaced by the promotion feature.
 */
export default function PaymentReturn(_props: { onPaid?: () => void }) {
  return null;
}
