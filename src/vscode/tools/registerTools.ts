/** Registers the language-model tools under the names package.json contributes. */
import * as vscode from 'vscode';
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH } from '../../core/index';
import type { Services } from '../run/services';
import { MultiEditFilesTool } from './multiEditFilesTool';
import { MultiEditPatchTool } from './multiEditPatchTool';
import { MultiEditTool } from './multiEditTool';

export function registerMultiEditTools(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.lm.registerTool(TOOL_MULTI_EDIT, new MultiEditTool(services)),
    vscode.lm.registerTool(TOOL_MULTI_EDIT_FILES, new MultiEditFilesTool(services)),
    vscode.lm.registerTool(TOOL_MULTI_EDIT_PATCH, new MultiEditPatchTool(services)),
  );
}
