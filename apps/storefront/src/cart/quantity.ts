/** Most units of one line a shopper asks for at once (the cart enforces stock). */
export const QUANTITY_MAX = 99;

/** The most a shopper may ask for: `QUANTITY_MAX`, or the tracked stock when it is lower (at least 1). */
export function quantityLimit(stock: number | null | undefined): number {
  return Math.max(1, Math.min(QUANTITY_MAX, stock ?? QUANTITY_MAX));
}

/** What the shopper typed as a quantity from 1 to `max` (anything unreadable is 1). */
export function clampQuantity(typed: string, max: number): number {
  return Math.max(1, Math.min(max, Math.floor(Number(typed)) || 1));
}
