import * as vscode from 'vscode';
import { createServices, type Services } from './run/services';
import { registerMultiEditTools } from './tools/registerTools';
import { registerFailureCodeActions } from './problems/failureCodeActions';
import { registerFailureHover } from './problems/failureHover';
import { registerReadOnlyDocuments } from './platform/readOnlyDocuments';
import { registerEditorCommands } from './commands/registerCommands';
import { registerDiagnostics } from './problems/failureFeed';
import { registerChatParticipant } from './chat/registerChat';
import { registerStatusBar } from './status/statusBar';
import { WalkthroughProgress } from './walkthrough/walkthroughProgress';
import { RequestFileMarkers } from './requestFiles/requestFileMarkers';
import { registerRequestFiles } from './requestFiles/requestCodeLens';
import { useTranslation } from './platform/localized';

/** What activate() returns: the shared services and where the log is written, for integration tests. */
export interface MultiEditApi extends Services {
  readonly logDirectory: vscode.Uri;
}

export function activate(context: vscode.ExtensionContext): MultiEditApi {
  useTranslation(vscode.l10n.t);
  const services = createServices(context);
  registerMultiEditTools(context, services);
  const failureFeed = registerDiagnostics(context, services);
  registerFailureCodeActions(context, failureFeed.failures);
  registerFailureHover(context, failureFeed.failures);
  const walkthrough = new WalkthroughProgress(services);
  context.subscriptions.push(walkthrough);
  const requestMarkers = new RequestFileMarkers(services);
  registerRequestFiles(context, requestMarkers);
  registerEditorCommands(context, { services, feed: failureFeed, documents: registerReadOnlyDocuments(context), requestMarkers }, () => walkthrough.quickFixUsed());
  registerChatParticipant(context, services, failureFeed);
  registerStatusBar(context, services);
  return { ...services, logDirectory: context.logUri };
}

export function deactivate(): void {}
