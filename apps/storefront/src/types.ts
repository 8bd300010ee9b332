/** The parts of a V1 product the storefront shows (field names of the platform's stores V1 API). */
export interface StoreProduct {
  _id: string;
  name: string;
  slug: string;
  description?: string;
  ribbon?: string;
  brand?: string;
  priceData: { currency: string; price: number; discountedPrice: number; formatted: { price: string; discountedPrice: string } };
  media?: { mainMedia?: { image?: { url: string; width: number; height: number } } };
  stock?: { inStock: boolean; inventoryStatus?: string };
  productOptions?: { optionType: 'drop_down' | 'color'; name: string; choices: { value: string; description: string; inStock: boolean }[] }[];
  variants?: { _id?: string; id?: string; choices: Record<string, string>; variant: { priceData: StoreProduct['priceData'] }; stock: { inStock: boolean } }[];
}
