// Orders as CSV for the accounting system, which expects CRLF line endings.
import type { CartLine } from '../cart';

export function toCsv(orderId: string, lines: readonly CartLine[]): string {
  const header = "order,sku,quantity";
  const rows = lines.map((line) => `${orderId},${line.sku},${line.quantity}`);
  return [header, ...rows].join('\r\n');
}
