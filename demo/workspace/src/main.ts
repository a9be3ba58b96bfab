import { describeCart, type CartLine } from './cart';
import { createLogger } from './logger';

const log = createLogger('info');

const lines: CartLine[] = [
  { sku: 'tea-earl-grey', quantity: 2 },
  { sku: 'tea-sencha', quantity: 1 },
];

log('info', describeCart(lines));
