import { randomBytes } from 'node:crypto';

/** A fresh random token: 192 bits, URL- and cookie-safe. */
export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}
