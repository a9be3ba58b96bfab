/**
 * The services every feature shares, created once per activation. Each feature's
 * registerX(context, services) takes what it needs from here.
 */
import * as vscode from 'vscode';
import { CONFIG_SECTION } from '../platform/ids';
import { createLogChannel } from './requestLog';
import { EditorHistory } from './editorHistory';
import { LastEdit } from './lastEdit';
import { RequestBus } from './requestRecord';
import { type ReadHooks, RequestRunner } from './requestRunner';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../shared/syntax/fileSyntaxChecker';
import { SettingsReader } from '../platform/settings';
import type { StoreHooks } from '../platform/workspaceFileStore';

export interface Services {
  readonly bus: RequestBus;
  readonly runner: RequestRunner;
  readonly log: vscode.LogOutputChannel;
  readonly settings: SettingsReader;
  /** The last request that changed files, for Undo Last Request and the status bar. */
  readonly lastEdit: LastEdit;
  /** The commit hook of the integration tests; absent unless the host runs them. */
  readonly storeHooks?: StoreHooks;
  /** The reading hook of the integration tests (to count readings); absent unless the host runs them. */
  readonly readHooks?: ReadHooks;
}

export function createServices(context: vscode.ExtensionContext): Services {
  const log = createLogChannel();
  const bus = new RequestBus();
  context.subscriptions.push(log, bus);
  const settings = new SettingsReader(() => vscode.workspace.getConfiguration(CONFIG_SECTION));
  // The commit and reading hooks exist only when the host runs the extension's tests.
  const testing = context.extensionMode === vscode.ExtensionMode.Test;
  const storeHooks: StoreHooks | undefined = testing ? {} : undefined;
  const readHooks: ReadHooks | undefined = testing ? {} : undefined;
  const syntaxChecker = fileSyntaxChecker({
    wasmDirectory: treeSitterWasmDirectory(),
    onUnavailable: (grammar, reason) => log.warn(`The ${grammar} parser could not be loaded (${reason}); such files are edited without a syntax check`),
  });
  const history = new EditorHistory(settings);
  const runner = new RequestRunner({ bus, log, settings, hooks: storeHooks, readHooks, syntaxChecker, history });
  const lastEdit = new LastEdit(bus, (historyId) => void runner.markUndoneInHistory(historyId));
  context.subscriptions.push(lastEdit);
  return { bus, runner, log, settings, lastEdit, storeHooks, readHooks };
}
