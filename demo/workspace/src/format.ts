export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export function formatQuantity(quantity: number, unit: string): string {
  return quantity === 1 ? `1 ${unit}` : `${quantity} ${unit}s`;
}
