// What other domains may use of cart: the pricing engine's exact money helpers.
export { currencyOf, displayAmount, formatMoney, parseMoney, type Currency } from './pricing/index.js';
