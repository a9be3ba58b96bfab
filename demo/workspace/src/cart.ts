import { formatPrice } from './format';
import { findProduct } from './inventory';

export interface CartLine {
  readonly sku: string;
  readonly quantity: number;
}

export function total(lines: readonly CartLine[]): number {
  let sum = 0;
  for (const line of lines) {
    const product = findProduct(line.sku);
    if (product) {
      sum += product.priceCents * line.quantity;
    }
  }
  return sum;
}

export function describeCart(lines: readonly CartLine[]): string {
  const count = lines.reduce((items, line) => items + line.quantity, 0);
  return `${count} items, ${formatPrice(total(lines))}`;
}
