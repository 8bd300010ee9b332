/**
 * Times as the owner reads them: in the browser's time zone, always labelled with it
 * ("22 Nov 2026, 01:17 GMT+1"), so nobody mistakes a UTC time for a local one.
 */

/** The owner's IANA time zone (the browser's), e.g. "Europe/Berlin". */
export function ownerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const FORMAT = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short',
});

/** "22 Nov 2026, 01:17 GMT+1"; '—' when there is no date. */
export function formatDate(date: Date | null | undefined, format: Intl.DateTimeFormat = FORMAT): string {
  if (!date || Number.isNaN(date.getTime())) return '—';
  return format.format(date);
}
