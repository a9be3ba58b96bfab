/**
 * Notebooks edited as notebooks: an old_string written as a cell's source text matches
 * inside one cell and is written back JSON-escaped in the file's layout, byte for byte
 * what Jupyter's writer would write; the raw JSON form gives the same bytes; failures
 * name their cell; and the syntax gate reads the JSON, the nbformat shape and Python cells.
 */
import * as assert from 'node:assert/strict';
import { failureOf, run, successOf } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';
import { CORPUS, notebookText, sourceLines, type CorpusNotebook } from './helpers/notebookCorpus';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../src/shared/syntax/fileSyntaxChecker';
import type { EngineOptions } from '../../src/core/engine/options';
import type { Edit } from '../../src/core/contract/schemas';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseCliResponse, runCli } from './helpers/cliRun';
import { startMcpSession } from './helpers/mcpSession';
import { useTempDir } from './helpers/tempDir';

const PATH = '/w/nb/analysis.ipynb';
const checker = fileSyntaxChecker({ wasmDirectory: treeSitterWasmDirectory() });

async function apply(text: string, edits: readonly Edit[], gate = true, path = PATH) {
  const store = new MemoryStore({ [path]: text });
  const options: EngineOptions = { store, ...(gate ? { syntaxChecker: checker } : { syntaxCheck: 'off' as const }) };
  const response = await run('multi_edit', { file_path: path, edits }, options);
  return { response, written: store.text(path) };
}

const withCell = (notebook: CorpusNotebook, index: number, source: string): CorpusNotebook => ({
  ...notebook,
  cells: notebook.cells.map((cell, at) => (at === index ? { ...cell, source } : cell)),
});

const byName = (name: string): CorpusNotebook => CORPUS.find((notebook) => notebook.name === name) as CorpusNotebook;

describe('notebooks: edits written as cell text', () => {
  it('writes a changed line back as the writer would: list form, escapes, key order and indentation kept', async () => {
    const notebook = byName('sales-analysis');
    const { response, written } = await apply(notebookText(notebook), [{ old_string: 'df = df[df["amount"] > 0]', new_string: 'df = df[df["amount"] >= 0]\ndf = df.dropna()' }]);
    const success = successOf(response);
    assert.equal(written, notebookText(withCell(notebook, 2, 'df = pd.read_csv("sales.csv")\ndf = df[df["amount"] >= 0]\ndf = df.dropna()\ndf.head()')));
    const note = success.warnings?.find((warning) => warning.code === 'NOTEBOOK_CELL_TEXT');
    assert.match(note?.message ?? '', /edit 1 in cell 2 \(id "c2-sale"\)/);
  });

  it('keeps a source written as one string one string, and the file\'s \\uXXXX escapes and CRLF', async () => {
    const sales = byName('sales-analysis');
    const tabbed = await apply(notebookText(sales), [{ old_string: '\tprint(region, len(group))', new_string: '\tprint(region, len(group), "rows")' }]);
    assert.equal(tabbed.written, notebookText(withCell(sales, 6, 'for region, group in df.groupby("region"):\n\tprint(region, len(group), "rows")')));

    const ascii = byName('older-writer');
    const accented = await apply(notebookText(ascii), [{ old_string: 'name = "café"', new_string: 'name = "crème brûlée"' }]);
    assert.equal(accented.written, notebookText(withCell(ascii, 1, 'name = "crème brûlée"\nprint(name.upper())')));

    const windows = byName('julia-windows');
    const crlf = await apply(notebookText(windows), [{ old_string: 'xs = [1, 2, 3]\r\nmean(xs)', new_string: 'xs = [1, 2, 3, 4]\r\nmean(xs)\r\nmedian(xs)' }]);
    assert.equal(crlf.written, notebookText(withCell(windows, 0, 'using Statistics\nxs = [1, 2, 3, 4]\nmean(xs)\nmedian(xs)')));
  });

  it('spreads a one-line source over several strings as the file separates them', async () => {
    const notebook = byName('older-writer');
    const text = notebookText(notebook);
    const { written } = await apply(text, [{ old_string: 'Résumé of the café data', new_string: 'Résumé\nof the café data\n' }]);
    assert.equal(written, notebookText(withCell(notebook, 0, 'Résumé\nof the café data\n')));
  });

  it('matches inside one cell where the raw JSON would be ambiguous (an output repeats the line)', async () => {
    const notebook = byName('sales-analysis');
    const text = notebookText(notebook);
    assert.equal(text.split('print(total(df))').length - 1, 2);
    const { written } = await apply(text, [{ old_string: 'print(total(df))', new_string: 'print(total(df, "amount"))' }]);
    const changed = withCell(notebook, 3, notebook.cells[3].source.replace('print(total(df))', 'print(total(df, "amount"))'));
    assert.equal(written, notebookText(changed));
  });

  it('still takes the raw JSON form, and says which edits matched which way', async () => {
    const notebook = byName('sales-analysis');
    const text = notebookText(notebook);
    const { response, written } = await apply(text, [
      { old_string: 'import numpy as np', new_string: 'import numpy as np\nimport scipy' },
      { old_string: '"display_name": "Python 3 (ipykernel)"', new_string: '"display_name": "Python 3"' },
    ]);
    const success = successOf(response);
    assert.ok(written?.includes('"display_name": "Python 3",'));
    assert.ok(written?.includes('"import numpy as np\\n",\n    "import scipy\\n",\n    "%matplotlib inline"'));
    assert.match(success.warnings?.find((warning) => warning.code === 'NOTEBOOK_CELL_TEXT')?.message ?? '', /edit 1 in cell 1 .*; edit 2 matched the raw JSON/);
  });
});

describe('notebooks: failures name the cell', () => {
  const text = notebookText(byName('sales-analysis'));

  it('an old_string that runs from one cell into the next is SPANS_CELLS, naming both', async () => {
    const envelope = failureOf((await apply(text, [{ old_string: 'import numpy as np\n%matplotlib inline\ndf = pd.read_csv("sales.csv")', new_string: 'x' }])).response);
    assert.equal(envelope.error_code, 'MATCH_NOT_FOUND');
    assert.equal(envelope.diagnosis?.kind, 'SPANS_CELLS');
    assert.deepEqual(envelope.diagnosis?.cells, [{ index: 1, id: 'c1-sale', cell_type: 'code' }, { index: 2, id: 'c2-sale', cell_type: 'code' }]);
    assert.match(envelope.message, /runs from cell 1 \(id "c1-sale"\) into cell 2 \(id "c2-sale"\)/);
    assert.match(envelope.recovery_hints.join('\n'), /one edit per cell/);
  });

  it('a near miss is shown in its cell, with lines and columns inside that cell', async () => {
    const envelope = failureOf((await apply(text, [{ old_string: '    if frame.empty:\n      return 0', new_string: 'x' }])).response);
    assert.deepEqual(envelope.context?.notebook_cell, { index: 3, id: 'c3-sale', cell_type: 'code' });
    assert.equal(envelope.diagnosis?.kind, 'INDENTATION');
    assert.equal(envelope.diagnosis?.line, 4);
    assert.equal(envelope.context?.start_line, 1);
    assert.ok(envelope.context?.snippet?.includes('def total(frame, column="amount"):\n    """Sum of a column, or 0."""'));
  });

  it('an ambiguous match lists the cells that hold it', async () => {
    const envelope = failureOf((await apply(text, [{ old_string: 'df.', new_string: 'frame.' }])).response);
    assert.equal(envelope.error_code, 'AMBIGUOUS_MATCH');
    assert.deepEqual(envelope.context?.match_cells?.map((cell) => cell.index), [2, 6]);
    assert.match(envelope.message, /occurs 2 times .* \(in cell 2 \(id "c2-sale"\), cell 6 \(id "c6-sale"\)\)/);
    assert.deepEqual(envelope.context?.notebook_cell, { index: 2, id: 'c2-sale', cell_type: 'code' });
    assert.equal(envelope.context?.match_locations?.[0]?.line, 3);
  });

  it('a JSON-escaped old_string that is not in the file is explained against the raw JSON', async () => {
    const envelope = failureOf((await apply(text, [{ old_string: 'df = pd.read_csv(\\"sales.tsv\\")', new_string: 'x' }])).response);
    assert.equal(envelope.context?.notebook_cell, undefined);
    assert.ok((envelope.context?.start_line ?? 0) > 10);
  });
});

describe('notebooks: the syntax gate', () => {
  const notebook = byName('sales-analysis');
  const text = notebookText(notebook);

  it('refuses a dropped comma in the raw JSON', async () => {
    const envelope = failureOf((await apply(text, [{ old_string: '"cell_type": "raw",', new_string: '"cell_type": "raw"' }])).response);
    assert.equal(envelope.error_code, 'SYNTAX_REGRESSION');
  });

  it('refuses a cell without its source, and a cells key renamed', async () => {
    const noSource = failureOf((await apply(text, [{ old_string: '"source": [\n    "raw text: keep \\"as is\\"\\n"\n   ]', new_string: '"text": []' }])).response);
    assert.equal(noSource.error_code, 'SYNTAX_REGRESSION');
    const renamed = failureOf((await apply(text, [{ old_string: '"cells": [', new_string: '"cell": [' }])).response);
    assert.equal(renamed.error_code, 'SYNTAX_REGRESSION');
  });

  it('refuses a Python cell edit that breaks the cell, and places the error in the file', async () => {
    const envelope = failureOf((await apply(text, [{ old_string: 'return frame[column].sum()', new_string: 'return frame[column.sum()' }])).response);
    assert.equal(envelope.error_code, 'SYNTAX_REGRESSION');
    const line = text.split('\n').findIndex((row) => row.includes('return frame[column].sum()')) + 1;
    assert.equal(envelope.context?.syntax_errors?.[0]?.line, line);
  });

  it('counts only new errors: IPython lines and a cell already broken do not refuse an edit elsewhere', async () => {
    const broken = notebookText(withCell(notebook, 4, 'print("unclosed'));
    const { response } = await apply(broken, [{ old_string: 'import pandas as pd', new_string: 'import pandas as pd\n%load_ext autoreload\n!ls' }]);
    successOf(response);
  });

  it('does not read cells of a kernel it has no grammar for', async () => {
    const r = byName('r-kernel');
    successOf((await apply(notebookText(r), [{ old_string: 'print(coef(fit))', new_string: 'print(coef(fit)' }])).response);
  });
});

describe('notebooks: through the CLI and the MCP server', function () {
  this.timeout(60_000);
  const notebook = byName('sales-analysis');
  const edit = { old_string: 'df = df[df["amount"] > 0]', new_string: 'df = df[df["amount"] >= 0]' };
  const expected = notebookText(withCell(notebook, 2, 'df = pd.read_csv("sales.csv")\ndf = df[df["amount"] >= 0]\ndf.head()'));
  const dir = useTempDir('notebook');
  let target: string;

  beforeEach(() => {
    target = path.join(dir(), 'sales.ipynb');
    fs.writeFileSync(target, notebookText(notebook));
  });

  it('multi-edit apply takes a cell-text edit and writes the notebook in its layout', () => {
    const requestFile = path.join(dir(), 'request.json');
    fs.writeFileSync(requestFile, JSON.stringify({ file_path: target, edits: [edit] }));
    const response = parseCliResponse(runCli(['apply', requestFile], { cwd: dir() }));
    assert.ok(response.success, JSON.stringify(response));
    assert.equal(fs.readFileSync(target, 'utf8'), expected);
    assert.deepEqual(response.warnings?.map((warning) => warning.code), ['NOTEBOOK_CELL_TEXT']);
  });

  it('the MCP server takes a cell-text edit, and refuses a dropped comma', async () => {
    const session = await startMcpSession({ cwd: dir(), args: ['--root', dir()] });
    try {
      const { response } = await session.call('multi_edit', { file_path: target, edits: [edit] });
      assert.ok(response.success, JSON.stringify(response));
      assert.equal(fs.readFileSync(target, 'utf8'), expected);
      const comma = await session.call('multi_edit', { file_path: target, edits: [{ old_string: '"cell_type": "raw",', new_string: '"cell_type": "raw"' }] });
      assert.equal(!comma.response.success && comma.response.error_code, 'SYNTAX_REGRESSION');
      assert.equal(fs.readFileSync(target, 'utf8'), expected);
    } finally {
      await session.close();
    }
  });
});

describe('notebooks: the corpus', function () {
  this.timeout(120_000);

  /** One line of each cell, unique in the notebook's sources, and an edit that changes nothing a parser minds: a blank line after it. */
  const neutralEdits = (notebook: CorpusNotebook): { cell: number; line: string }[] => {
    const all = notebook.cells.flatMap((cell) => sourceLines(cell.source).map((line) => line.replace(/\n$/, '')));
    return notebook.cells.flatMap((cell, index) => sourceLines(cell.source)
      .map((line) => line.replace(/\n$/, ''))
      .filter((line) => line.trim() !== '' && !line.endsWith('\\') && all.filter((other) => other.includes(line)).length === 1)
      .map((line) => ({ cell: index, line })));
  };

  it('every neutral edit of every cell passes the gate, and cell text and raw JSON give the same bytes', async () => {
    let checked = 0;
    for (const notebook of CORPUS) {
      const text = notebookText(notebook);
      for (const { cell, line } of neutralEdits(notebook)) {
        const source = notebook.cells[cell].source;
        const at = source.indexOf(line) + line.length;
        const expected = notebookText(withCell(notebook, cell, `${source.slice(0, at)}\n${source.slice(at)}`));
        const asCell = await apply(text, [{ old_string: line, new_string: `${line}\n` }]);
        successOf(asCell.response);
        assert.equal(asCell.written, expected, `${notebook.name}, cell ${cell}: ${line}`);
        const rawForm = rawEdit(text, expected);
        if (rawForm) {
          const asJson = await apply(text, [rawForm]);
          successOf(asJson.response);
          assert.equal(asJson.written, asCell.written, `${notebook.name}, cell ${cell}, raw form: ${line}`);
        }
        checked++;
      }
    }
    assert.ok(checked > 40, `${checked} edits`);
  });
});

/** The same change as a raw JSON edit: the differing stretch grown to whole lines until it occurs once. */
function rawEdit(before: string, after: string): Edit | undefined {
  let head = 0;
  while (head < before.length && before[head] === after[head]) {
    head++;
  }
  let tail = 0;
  while (tail < before.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) {
    tail++;
  }
  let start = before.lastIndexOf('\n', head - 1) + 1;
  let end = before.indexOf('\n', before.length - tail);
  for (let grow = 0; grow < 6; grow++) {
    const oldString = before.slice(start, end);
    if (oldString.trim() !== '' && before.split(oldString).length === 2) {
      return { old_string: oldString, new_string: after.slice(start, after.length - (before.length - end)) };
    }
    start = before.lastIndexOf('\n', start - 2) + 1;
    end = before.indexOf('\n', end + 1);
  }
  return undefined;
}
