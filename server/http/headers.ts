// The fixed answer headers of docs/api.md "Security".
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; worker-src blob:; " +
  "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

/** On every answer: harmless on JSON, required on HTML. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

export const API_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Cache-Control': 'no-store',
};
