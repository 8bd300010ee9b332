// What other domains may use of cart: the pricing engine's exact money helpers.
export { currencyOf, DEFAULT_ROUNDING_MODE, displayAmount, divRound, formatMoney, parseMoney, type Currency } from './pricing/index.js';
