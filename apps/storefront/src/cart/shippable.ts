import type { currentCart } from '@vitrine/sdk/ecom';

/**
 * Whether a cart or checkout line is shipped: as the server's pricing decides (the line's
 * `physicalProperties.shippable`, else a physical item). Digital items need no shipping address.
 */
export function shippable(line: Pick<currentCart.LineItem, 'physicalProperties' | 'itemType'>): boolean {
  return line.physicalProperties?.shippable ?? line.itemType.preset === 'PHYSICAL';
}
