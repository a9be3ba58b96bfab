/**
 * A notebook failure explained in a cell (the envelope's context.notebook_cell): when the
 * notebook is open in the notebook editor, its problem goes on that cell, whose lines are
 * the ones the context counts.
 */
import * as vscode from 'vscode';
import type { EnvelopeContext } from '../../core/index';
import { openNotebookOf } from '../platform/openNotebooks';

export function cellDocumentOf(target: string, context: EnvelopeContext | undefined): vscode.TextDocument | undefined {
  const cell = context?.notebook_cell;
  if (cell === undefined) {
    return undefined;
  }
  const notebook = openNotebookOf(vscode.Uri.file(target));
  return notebook !== undefined && cell.index < notebook.cellCount ? notebook.cellAt(cell.index).document : undefined;
}
