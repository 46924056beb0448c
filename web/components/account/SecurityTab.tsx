/**
 * SEAM (owned by the accounts work of issue 4): the 'Säkerhet' tab of the business profile editor
 * (TOTP two-factor: enrol with QR code, confirm a code, remove). Rendered by the venues work's editor.
 */
export default function SecurityTab() {
  return null;
}
