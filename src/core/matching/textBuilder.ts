/**
 * Joins many small parts into one string without holding them all at once. A
 * replace_all with millions of matches would otherwise keep millions of slices
 * alive (tens of bytes each) until one final join: gigabytes for a 30 MB file.
 */
const PARTS_PER_CHUNK = 1024;

export class TextBuilder {
  private readonly chunks: string[] = [];
  private parts: string[] = [];

  push(part: string): void {
    this.parts.push(part);
    if (this.parts.length >= PARTS_PER_CHUNK) {
      this.chunks.push(this.parts.join(''));
      this.parts = [];
    }
  }

  build(): string {
    this.chunks.push(this.parts.join(''));
    this.parts = [];
    return this.chunks.join('');
  }
}
