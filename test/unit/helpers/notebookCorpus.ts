/**
 * Notebooks as Jupyter writes them, made here: nbformat 4.x, keys sorted, one space of
 * indentation per level, each source a list of lines (or, as some writers do, one
 * string), a final newline. Several kernels, cell kinds, outputs that repeat source
 * text, quotes, backslashes, tabs and text beyond ASCII.
 */

export interface CorpusCell {
  readonly cell_type: 'code' | 'markdown' | 'raw';
  readonly source: string;
  /** Write the source as one string rather than a list of lines. */
  readonly asString?: boolean;
  /** Stream output text of a code cell. */
  readonly output?: string;
}

export interface CorpusNotebook {
  readonly name: string;
  readonly kernel: { readonly name: string; readonly display: string; readonly language: string };
  /** 4.4 has no cell ids; 4.5 does. */
  readonly minor: 4 | 5;
  readonly cells: readonly CorpusCell[];
  /** Escape every character beyond ASCII, as json.dumps(ensure_ascii=True) does. */
  readonly asciiOnly?: boolean;
  readonly crlf?: boolean;
}

export function sourceLines(source: string): string[] {
  return source.split(/(?<=\n)/).filter((line) => line !== '');
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sorted);
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/** The notebook's file text, laid out as nbformat's writer lays it out. */
export function notebookText(notebook: CorpusNotebook): string {
  let count = 0;
  const cells = notebook.cells.map((cell, index) => ({
    cell_type: cell.cell_type,
    ...(notebook.minor === 5 ? { id: `c${index}-${notebook.name.slice(0, 4)}` } : {}),
    metadata: {},
    source: cell.asString ? cell.source : sourceLines(cell.source),
    ...(cell.cell_type === 'code' ? {
      execution_count: ++count,
      outputs: cell.output === undefined ? [] : [{ name: 'stdout', output_type: 'stream', text: sourceLines(cell.output) }],
    } : {}),
  }));
  const json = JSON.stringify(sorted({
    cells,
    metadata: {
      kernelspec: { display_name: notebook.kernel.display, language: notebook.kernel.language, name: notebook.kernel.name },
      language_info: { name: notebook.kernel.language },
    },
    nbformat: 4,
    nbformat_minor: notebook.minor,
  }), null, 1);
  const ascii = notebook.asciiOnly ? json.replace(/[^\x00-\x7f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
  const text = `${ascii}\n`;
  return notebook.crlf ? text.replace(/\n/g, '\r\n') : text;
}

const PYTHON = { name: 'python3', display: 'Python 3 (ipykernel)', language: 'python' };

export const CORPUS: readonly CorpusNotebook[] = [
  {
    name: 'sales-analysis',
    kernel: PYTHON,
    minor: 5,
    cells: [
      { cell_type: 'markdown', source: '# Sales\n\nTotals per region, in €.' },
      { cell_type: 'code', source: 'import pandas as pd\nimport numpy as np\n%matplotlib inline' },
      { cell_type: 'code', source: 'df = pd.read_csv("sales.csv")\ndf = df[df["amount"] > 0]\ndf.head()', output: 'region amount\nnorth 12\n' },
      { cell_type: 'code', source: 'def total(frame, column="amount"):\n    """Sum of a column, or 0."""\n    if frame.empty:\n        return 0\n    return frame[column].sum()\n\nprint(total(df))', output: 'print(total(df))\n42\n' },
      { cell_type: 'code', source: 'pattern = r"\\d+\\.\\d{2}"\nlabel = \'it\\\'s\\tdone\'\nprint(label)' },
      { cell_type: 'raw', source: 'raw text: keep "as is"\n' },
      { cell_type: 'code', source: 'for region, group in df.groupby("region"):\n\tprint(region, len(group))', asString: true },
    ],
  },
  {
    name: 'older-writer',
    kernel: PYTHON,
    minor: 4,
    asciiOnly: true,
    cells: [
      { cell_type: 'markdown', source: 'Résumé of the café data' },
      { cell_type: 'code', source: 'name = "café"\nprint(name.upper())', output: 'CAFÉ\n' },
      { cell_type: 'code', source: '!pip install requests\nimport requests\nresponse = requests.get("https://example.org")' },
      { cell_type: 'code', source: '' },
    ],
  },
  {
    name: 'r-kernel',
    kernel: { name: 'ir', display: 'R', language: 'R' },
    minor: 4,
    cells: [
      { cell_type: 'code', source: 'library(dplyr)\ndata <- read.csv("x.csv")\nsummary(data)' },
      { cell_type: 'markdown', source: '## Model\nA linear fit.' },
      { cell_type: 'code', source: 'fit <- lm(y ~ x, data = data)\nprint(coef(fit))' },
    ],
  },
  {
    name: 'julia-windows',
    kernel: { name: 'julia-1.10', display: 'Julia 1.10', language: 'julia' },
    minor: 5,
    crlf: true,
    cells: [
      { cell_type: 'code', source: 'using Statistics\nxs = [1, 2, 3]\nmean(xs)' },
      { cell_type: 'code', source: 'function greet(name)\n    println("Hello, $name")\nend' },
    ],
  },
  {
    name: 'deno-typescript',
    kernel: { name: 'deno', display: 'Deno', language: 'typescript' },
    minor: 5,
    cells: [
      { cell_type: 'code', source: 'const rows = await fetch("/api").then((r) => r.json());\nconsole.log(rows.length);' },
      { cell_type: 'markdown', source: 'Notes: `rows` is an array.' },
    ],
  },
];
