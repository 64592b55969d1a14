/** A deterministic, salted digest of a password (FNV-1a; a sample, not a real KDF). */
export function hashPassword(password: string, salt: string): string {
  let h = 0x811c9dc5;
  for (const ch of salt + ":" + password) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** Compares a password with a stored digest. */
export function verifyPassword(password: string, salt: string, digest: string): boolean {
  return hashPassword(password, salt) === digest;
}
