import { createContext, useContext } from 'react';

/** Whether the cart drawer is open; set by the header's cart button and after adding to the cart. */
export interface CartUi { open: boolean; setOpen(open: boolean): void }
export const CartUiContext = createContext<CartUi>({ open: false, setOpen: () => {} });
export const useCartUi = () => useContext(CartUiContext);
