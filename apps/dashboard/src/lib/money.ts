/**
 * Amounts typed by the owner as whole cents, so sums and differences shown in the dashboard never
 * carry binary-float noise (the server keeps money as decimals; this is display arithmetic only).
 */
export function toCents(text: string): number | undefined {
  const m = /^\s*(\d+)(?:\.(\d{0,2}))?\s*$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** 1234 -> "12.34", -50 -> "-0.50". */
export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
