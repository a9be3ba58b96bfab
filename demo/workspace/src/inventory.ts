export interface Product {
  readonly sku: string;
  readonly name: string;
  readonly priceCents: number;
  stock: number;
}

const PRODUCTS: Product[] = [
  { sku: 'tea-earl-grey', name: 'Earl Grey, 100 g', priceCents: 650, stock: 12 },
  { sku: 'tea-sencha', name: 'Sencha, 100 g', priceCents: 890, stock: 4 },
  { sku: 'mug-blue', name: 'Blue mug', priceCents: 1200, stock: 0 },
];

export function findProduct(sku: string): Product | undefined {
  const product = PRODUCTS.find((candidate) => candidate.sku === sku);
  if (!product) {
    return undefined;
  }
  return product;
}

export function reserve(sku: string, quantity: number): Product | undefined {
  const product = findProduct(sku);
  if (!product || product.stock < quantity) {
    return undefined;
  }
  product.stock -= quantity;
  return product;
}
