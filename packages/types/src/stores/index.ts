export type * from './products-v1.js';
export type * from './products-v3.js';
export type * from './inventory.js';
