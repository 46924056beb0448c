/**
 * SEAM (owned by the accounts work of issue 4): the 'Konto' tab of the business profile editor
 * (change e-mail with password, change password). Rendered by the venues work's profile editor.
 */
export default function AccountTab() {
  return null;
}
