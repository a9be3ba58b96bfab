/** Registers the language-model tools under the names package.json contributes. */
import * as vscode from 'vscode';
import { RepeatedFailures, TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH } from '../../core/index';
import type { Services } from '../run/services';
import { MultiEditFilesTool } from './multiEditFilesTool';
import { MultiEditPatchTool } from './multiEditPatchTool';
import { MultiEditTool } from './multiEditTool';

export function registerMultiEditTools(context: vscode.ExtensionContext, services: Services): void {
  const repeats = new RepeatedFailures();
  context.subscriptions.push(
    vscode.lm.registerTool(TOOL_MULTI_EDIT, new MultiEditTool(services, repeats)),
    vscode.lm.registerTool(TOOL_MULTI_EDIT_FILES, new MultiEditFilesTool(services, repeats)),
    vscode.lm.registerTool(TOOL_MULTI_EDIT_PATCH, new MultiEditPatchTool(services, repeats)),
  );
}
