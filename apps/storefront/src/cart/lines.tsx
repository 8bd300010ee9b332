import { Link } from '../router';
import type { currentCart } from '@vitrine/sdk/ecom';
import { useRemoveFromCart, useUpdateCartQuantity } from '@vitrine/react';
import { clampQuantity, quantityLimit } from './quantity';
import { optionsText } from '../orders/order-view';

type LineItem = currentCart.LineItem;

/** What the shopper can do about a line the store cannot sell as it is. */
function availabilityProblem(line: LineItem): string | undefined {
  const { status, quantityAvailable } = line.availability;
  if (status === 'NOT_FOUND') return 'This product is no longer sold. Remove it to check out.';
  if (status === 'NOT_AVAILABLE') return 'Out of stock. Remove it to check out.';
  if (status === 'PARTIALLY_AVAILABLE') return `Only ${quantityAvailable ?? 0} left. Lower the quantity to check out.`;
  return undefined;
}

/**
 * The line's product page with the line's variant chosen: its choices by option name, as the product
 * page reads them (`?Size=M`; catalog/variant.ts). The other description lines (custom text) are not
 * options and the product page ignores them.
 */
function lineHref(line: LineItem, relativePath: string): string {
  const choices = new URLSearchParams(line.descriptionLines.flatMap((d) => {
    const value = d.plainText?.original ?? d.colorInfo?.original;
    return value ? [[d.name.original, value]] : [];
  }));
  const query = choices.toString();
  return query ? `${relativePath}?${query}` : relativePath;
}

/** Cart lines with quantity, remove and availability problems (drawer and cart page). */
export function CartLines({ lines, compact = false }: { lines: LineItem[]; compact?: boolean }) {
  const quantity = useUpdateCartQuantity();
  const remove = useRemoveFromCart();
  const error = quantity.error ?? remove.error;
  return (
    <>
      <ul className="divide-y divide-stone-200" data-testid="cart-lines">
        {lines.map((line) => {
          const problem = availabilityProblem(line);
          // Tracked stock bounds the quantity; the server answers it as quantityAvailable.
          const max = quantityLimit(line.availability.quantityAvailable);
          return (
            <li key={line._id} className="flex gap-3 py-3" data-testid="cart-line">
              <div className="h-16 w-16 shrink-0 overflow-hidden rounded bg-stone-200">
                {line.image && <img src={line.image.url} alt="" width={64} height={64} className="h-full w-full object-cover" />}
              </div>
              <div className="min-w-0 flex-1 text-sm">
                <p className="font-medium">{line.url ? <Link to={lineHref(line, line.url.relativePath)} className="hover:underline">{line.productName.original}</Link> : line.productName.original}</p>
                {line.descriptionLines.length > 0 && <p className="text-stone-700">{optionsText(line.descriptionLines)}</p>}
                <p className="text-stone-700">{line.price.formattedAmount} each</p>
                {problem && <p role="alert" className="mt-1 text-rose-800" data-testid="line-problem">{problem}</p>}
                <div className="mt-2 flex items-center gap-3">
                  <label className="flex items-center gap-2">
                    <span className={compact ? 'sr-only' : ''}>Quantity</span>
                    <input
                      type="number" min={1} max={max} defaultValue={line.quantity} key={line.quantity}
                      aria-label={`Quantity of ${line.productName.original}`}
                      onBlur={(e) => {
                        const next = clampQuantity(e.target.value, max);
                        e.target.value = String(next);
                        if (next !== line.quantity) quantity.mutate([{ _id: line._id, quantity: next }]);
                      }}
                      onKeyDown={(e) => { if (e.key === 'Enter') e.currentTarget.blur(); }}
                      className="w-16 rounded border border-stone-400 px-2 py-1"
                    />
                  </label>
                  <button type="button" onClick={() => remove.mutate([line._id])} className="underline">Remove</button>
                </div>
              </div>
              <p className="text-sm font-medium" data-testid="line-total">{line.lineItemPrice.formattedAmount}</p>
            </li>
          );
        })}
      </ul>
      {error && <p role="alert" className="mt-2 text-sm text-rose-800">{error.message}</p>}
    </>
  );
}
