/**
 * Variant choice on the product page. The chosen choices live in the URL (`?Size=M&Color=Black`,
 * choice descriptions by option name), so a shared link opens the same variant, server-rendered.
 */
import type { products } from '@vitrine/sdk/stores';

type Product = products.Product;
type Variant = products.Variant;
export type Choices = Record<string, string>;

/** A variant's choice for one option, as a description (variants may store colour values). */
function choiceOf(product: Product, variant: Variant, optionName: string): string | undefined {
  const raw = variant.choices[optionName];
  const option = product.productOptions.find((o) => o.name === optionName);
  const choice = option?.choices.find((c) => c.description === raw || c.value === raw);
  return choice?.description ?? raw;
}

/** The choices named in the URL that exist on the product (others are ignored). */
export function choicesFromUrl(product: Product, params: URLSearchParams): Choices {
  const out: Choices = {};
  for (const option of product.productOptions) {
    const wanted = params.get(option.name);
    if (wanted && option.choices.some((c) => c.description === wanted)) out[option.name] = wanted;
  }
  return out;
}

/** The variant of a full choice (every option chosen), else undefined. */
export function variantOf(product: Product, choices: Choices): Variant | undefined {
  if (product.productOptions.length === 0) return product.variants[0];
  if (product.productOptions.some((o) => !choices[o.name])) return undefined;
  return product.variants.find((v) => product.productOptions.every((o) => choiceOf(product, v, o.name) === choices[o.name]));
}

/**
 * Whether a choice can still be bought given the shopper's other choices: some visible variant with
 * this choice and the other chosen ones is in stock.
 */
export function choiceAvailable(product: Product, choices: Choices, optionName: string, description: string): boolean {
  return product.variants.some((v) => v.variant.visible !== false && v.stock.inStock
    && choiceOf(product, v, optionName) === description
    && product.productOptions.every((o) => o.name === optionName || !choices[o.name] || choiceOf(product, v, o.name) === choices[o.name]));
}
