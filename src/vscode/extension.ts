import type * as vscode from 'vscode';
import { createServices, type Services } from './platform/services';
import { registerMultiEditTools } from './tools/registerTools';
import { registerFailureCodeActions } from './problems/failureCodeActions';
import { registerReadOnlyDocuments } from './platform/readOnlyDocuments';
import { registerEditorCommands } from './commands/registerCommands';
import { registerDiagnostics } from './problems/failureFeed';
import { registerChatParticipant } from './chat/registerChat';

/** What activate() returns: the shared services and where the log is written, for integration tests. */
export interface MultiEditApi extends Services {
  readonly logDirectory: vscode.Uri;
}

export function activate(context: vscode.ExtensionContext): MultiEditApi {
  const services = createServices(context);
  registerMultiEditTools(context, services);
  const failureFeed = registerDiagnostics(context, services);
  registerFailureCodeActions(context, failureFeed.failures);
  registerEditorCommands(context, { services, feed: failureFeed, documents: registerReadOnlyDocuments(context) });
  registerChatParticipant(context, services, failureFeed);
  return { ...services, logDirectory: context.logUri };
}

export function deactivate(): void {}
