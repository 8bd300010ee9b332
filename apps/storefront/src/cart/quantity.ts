/** Most units of one line a shopper asks for at once (the cart enforces stock). */
export const QUANTITY_MAX = 99;
