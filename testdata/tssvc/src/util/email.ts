/** Lower-cases an e-mail address and trims the white space around it. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Reports whether the address has one "@" with text on both sides and a dot in the domain. */
export function isValidEmail(email: string): boolean {
  const at = email.indexOf("@");
  if (at <= 0 || at !== email.lastIndexOf("@")) {
    return false;
  }
  const domain = email.slice(at + 1);
  return domain.includes(".") && !domain.startsWith(".") && !domain.endsWith(".");
}
