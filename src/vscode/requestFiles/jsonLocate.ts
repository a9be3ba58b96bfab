/**
 * Where a field of a request sits in its JSON text: the offsets of the value at a
 * path such as ["files", 1, "edits", 0, "old_string"], or of the nearest part of
 * the path that exists (a missing field is marked on the object that lacks it).
 * No vscode import: it works on text, and is unit-tested in Node.
 */

export type JsonPath = readonly (string | number)[];

export interface JsonSpan {
  readonly start: number;
  readonly end: number;
  /** True when the whole path exists; false when the span is the nearest existing parent. */
  readonly exact: boolean;
  /** For an object member, the span of its key (an unknown field is marked on its key). */
  readonly key?: { readonly start: number; readonly end: number };
}

interface JsonNode {
  readonly start: number;
  readonly end: number;
  readonly members?: ReadonlyMap<string, { readonly key: { start: number; end: number }; readonly value: JsonNode }>;
  readonly items?: readonly JsonNode[];
}

class JsonScanner {
  private at = 0;

  constructor(private readonly text: string) {}

  parseDocument(): JsonNode | undefined {
    try {
      const node = this.value();
      this.space();
      return this.at === this.text.length ? node : undefined;
    } catch {
      return undefined;
    }
  }

  private space(): void {
    while (this.at < this.text.length && ' \t\r\n\uFEFF'.includes(this.text[this.at])) {
      this.at++;
    }
  }

  private fail(): never {
    throw new Error(`not JSON at offset ${this.at}`);
  }

  private value(): JsonNode {
    this.space();
    const start = this.at;
    const char = this.text[this.at];
    if (char === '{') {
      return this.object(start);
    }
    if (char === '[') {
      return this.array(start);
    }
    if (char === '"') {
      this.string();
      return { start, end: this.at };
    }
    const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(this.text.slice(this.at, this.at + 400));
    if (!literal) {
      this.fail();
    }
    this.at += literal[0].length;
    return { start, end: this.at };
  }

  private string(): string {
    const start = this.at;
    this.at++;
    while (this.at < this.text.length && this.text[this.at] !== '"') {
      this.at += this.text[this.at] === '\\' ? 2 : 1;
    }
    if (this.at >= this.text.length) {
      this.fail();
    }
    this.at++;
    return JSON.parse(this.text.slice(start, this.at)) as string;
  }

  private object(start: number): JsonNode {
    const members = new Map<string, { key: { start: number; end: number }; value: JsonNode }>();
    this.at++;
    this.space();
    while (this.text[this.at] !== '}') {
      this.space();
      if (this.text[this.at] !== '"') {
        this.fail();
      }
      const keyStart = this.at;
      const name = this.string();
      const key = { start: keyStart, end: this.at };
      this.space();
      if (this.text[this.at] !== ':') {
        this.fail();
      }
      this.at++;
      members.set(name, { key, value: this.value() });
      this.space();
      if (this.text[this.at] === ',') {
        this.at++;
        this.space();
      } else if (this.text[this.at] !== '}') {
        this.fail();
      }
    }
    this.at++;
    return { start, end: this.at, members };
  }

  private array(start: number): JsonNode {
    const items: JsonNode[] = [];
    this.at++;
    this.space();
    while (this.text[this.at] !== ']') {
      items.push(this.value());
      this.space();
      if (this.text[this.at] === ',') {
        this.at++;
      } else if (this.text[this.at] !== ']') {
        this.fail();
      }
      this.space();
    }
    this.at++;
    return { start, end: this.at, items };
  }
}

/** The span of the value at `path` in `text`, or of its nearest existing parent; undefined when `text` is not JSON. */
export function locateJsonPath(text: string, path: JsonPath): JsonSpan | undefined {
  const root = new JsonScanner(text).parseDocument();
  if (!root) {
    return undefined;
  }
  let node = root;
  let key: { start: number; end: number } | undefined;
  for (const step of path) {
    const member = typeof step === 'string' ? node.members?.get(step) : undefined;
    const next = typeof step === 'number' ? node.items?.[step] : member?.value;
    if (!next) {
      return { start: node.start, end: node.end, exact: false, ...(key ? { key } : {}) };
    }
    key = member?.key;
    node = next;
  }
  return { start: node.start, end: node.end, exact: true, ...(key ? { key } : {}) };
}
