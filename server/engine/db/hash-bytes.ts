// A content's sha256 as the store's rows keep it (32 bytes) and as the engine has it (hex).
// What is not a sha256's hex has no bytes form: no content the store writes is named so.
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The hash's 32 bytes; null for what is not a sha256's hex. */
export function hashBytes(hash: string): Buffer | null {
  return SHA256_HEX.test(hash) ? Buffer.from(hash, 'hex') : null;
}

/** A hash as a row holds it, in hex: bytes since the schema that made it so, text kept from before (or null). */
export function hashHex(stored: Buffer | string | null): string | null {
  return Buffer.isBuffer(stored) ? stored.toString('hex') : stored;
}
