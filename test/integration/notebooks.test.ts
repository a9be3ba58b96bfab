// Notebooks in the real extension host: a notebook open in the notebook editor is edited through its
// cells (an unsaved cell change survives, one undo takes the tool's edit back), and a notebook that
// is not open is edited on disk, a cell-text old_string written back in the file's layout.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import { expectError, invokeTool, readDisk, toolSuiteFixture, waitFor, withSettings, writeScratchFile } from './helpers';
import { CORPUS, notebookText, type CorpusNotebook } from '../unit/helpers/notebookCorpus';

const SALES = CORPUS.find((notebook) => notebook.name === 'sales-analysis') as CorpusNotebook;
const withCell = (notebook: CorpusNotebook, index: number, source: string): CorpusNotebook => ({
  ...notebook,
  cells: notebook.cells.map((cell, at) => (at === index ? { ...cell, source } : cell)),
});

/** Reverts each notebook left unsaved (closing one would ask to save it), then closes every editor. */
async function closeNotebooks(): Promise<void> {
  for (const notebook of vscode.workspace.notebookDocuments.filter((candidate) => candidate.isDirty)) {
    await vscode.window.showNotebookDocument(notebook);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

suite('notebooks: edited as notebooks', function () {
  // Opening a notebook loads VS Code's ipynb serializer, slow on a loaded machine.
  this.timeout(120_000);
  const fixture = toolSuiteFixture('notebooks');
  teardown(closeNotebooks);

  test('a notebook open with an unsaved cell change: the tool edits another cell through the notebook, the change survives, one undo takes the edit back', async () => {
    const file = writeScratchFile(fixture.dir, 'open.ipynb', notebookText(SALES));
    const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    await vscode.window.showNotebookDocument(notebook);
    const unsaved = new vscode.WorkspaceEdit();
    unsaved.insert(notebook.cellAt(1).document.uri, new vscode.Position(0, 0), '# not saved yet\n');
    assert.ok(await vscode.workspace.applyEdit(unsaved));
    assert.ok(notebook.isDirty);
    const onDisk = readDisk(file);

    const reply = await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [
      { old_string: 'df = df[df["amount"] > 0]', new_string: 'df = df[df["amount"] >= 0]' },
      { old_string: '# not saved yet\nimport pandas as pd', new_string: '# not saved yet\nimport pandas as pd  # the unsaved line matched too' },
    ] });
    assert.equal(reply.response.success, true, reply.text);
    assert.equal(notebook.cellAt(2).document.getText(), 'df = pd.read_csv("sales.csv")\ndf = df[df["amount"] >= 0]\ndf.head()');
    assert.match(notebook.cellAt(1).document.getText(), /^# not saved yet\nimport pandas as pd {2}# the unsaved line matched too\n/);
    assert.equal(readDisk(file), onDisk, 'a dirty notebook is not saved by the default setting, and its file is not written under it');

    // Undo acts on the focused editor: a cell of the notebook, as a person pressing Ctrl+Z in it.
    await vscode.window.showTextDocument(notebook.cellAt(2).document);
    await vscode.commands.executeCommand('undo');
    assert.equal(notebook.cellAt(2).document.getText(), 'df = pd.read_csv("sales.csv")\ndf = df[df["amount"] > 0]\ndf.head()', 'one undo restores the edited cell');
    assert.match(notebook.cellAt(1).document.getText(), /^# not saved yet\nimport pandas as pd\n/, 'and restores the other edited cell, keeping the unsaved change');
  });

  test('a notebook open and saved: the edit is saved through the notebook, in the file\'s layout', async () => {
    const file = writeScratchFile(fixture.dir, 'saved.ipynb', notebookText(SALES));
    const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    await vscode.window.showNotebookDocument(notebook);
    const reply = await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'print(label)', new_string: 'print(label.upper())' }] });
    assert.equal(reply.response.success, true, reply.text);
    assert.equal(notebook.isDirty, false, 'saved, as a text document that was not dirty is');
    assert.match(readDisk(file), /"print\(label\.upper\(\)\)"/);
  });

  test('an open notebook refuses a change outside its cells\' text, and nothing changes', async () => {
    const file = writeScratchFile(fixture.dir, 'structure.ipynb', notebookText(SALES));
    const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    await vscode.window.showNotebookDocument(notebook);
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: '"display_name": "Python 3 (ipykernel)"', new_string: '"display_name": "Python"' }] }), 'WRITE_FAILED');
    assert.match(envelope.message, /open in the notebook editor/);
    assert.equal(notebook.isDirty, false);
  });

  test('a failed cell-text edit of an open notebook is a problem on its cell, at the line in the cell', async () => {
    const file = writeScratchFile(fixture.dir, 'problem.ipynb', notebookText(SALES));
    const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    await vscode.window.showNotebookDocument(notebook);
    const envelope = expectError(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: '    if frame.empty:\n      return 0', new_string: 'x' }] }), 'MATCH_NOT_FOUND');
    assert.equal(envelope.context?.notebook_cell?.index, 3);
    const cell = notebook.cellAt(3).document.uri;
    const onCell = (): vscode.Diagnostic[] => vscode.languages.getDiagnostics(cell).filter((diagnostic) => diagnostic.source === 'multi-edit');
    await waitFor('a problem on the cell', () => onCell().length > 0);
    assert.equal(onCell()[0].range.start.line, 2, 'the line of the cell that old_string came closest to');
  });

  test('a notebook not open: a cell-text edit is written to disk in the file\'s layout', async () => {
    const file = writeScratchFile(fixture.dir, 'closed.ipynb', notebookText(SALES));
    await withSettings({}, async () => {
      const reply = await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: [{ old_string: 'import numpy as np', new_string: 'import numpy as np\nimport scipy' }] });
      assert.equal(reply.response.success, true, reply.text);
    });
    assert.equal(readDisk(file), notebookText(withCell(SALES, 1, 'import pandas as pd\nimport numpy as np\nimport scipy\n%matplotlib inline')));
  });
});
