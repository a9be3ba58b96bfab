import * as vscode from 'vscode';
import { createServices, type Services } from './run/services';
import type { StoreHooks } from './platform/workspaceFileStore';
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

/**
 * What the integration tests reach: the shared services, the commit hook and where the log is
 * written. activate() returns it only under the test harness (ExtensionMode.Test); any other
 * extension that activates Multi-Edit gets nothing, so it can neither drive the runner nor hook a commit.
 */
export interface MultiEditApi extends Services {
  readonly storeHooks: StoreHooks;
  readonly logDirectory: vscode.Uri;
}

/** The API for a host in `mode`: undefined unless the host runs the extension's tests. */
export function apiForMode(mode: vscode.ExtensionMode, services: Services, logDirectory: vscode.Uri): MultiEditApi | undefined {
  if (mode !== vscode.ExtensionMode.Test || services.storeHooks === undefined) {
    return undefined;
  }
  return { ...services, storeHooks: services.storeHooks, logDirectory };
}

export function activate(context: vscode.ExtensionContext): MultiEditApi | undefined {
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
  return apiForMode(context.extensionMode, services, context.logUri);
}

export function deactivate(): void {}
