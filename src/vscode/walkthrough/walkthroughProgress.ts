/**
 * Ticks the Get Started walkthrough's steps on what the user really did: a request
 * applied (from any surface), a problem shown, a quick fix used. Each sets a context
 * key that a step's completionEvents waits for ("onContext:..."), and marks the step
 * complete by its id: VS Code reads walkthroughs when it first needs them (1.139 does so
 * only when one opens), and a key already set by then never ticks its step. VS Code
 * remembers a completed step, so each is marked once per session.
 */
import * as vscode from 'vscode';
import { userChoseOutcome } from '../../core/index';
import { EXTENSION_ID } from '../platform/ids';
import type { Services } from '../run/services';

export const WALKTHROUGH_KEYS = {
  applied: 'multiEdit.walkthrough.applied',
  problemShown: 'multiEdit.walkthrough.problemShown',
  quickFixUsed: 'multiEdit.walkthrough.quickFixUsed',
} as const;

/** The step each key completes, as package.json's walkthrough names it. */
const STEP_OF_KEY: Record<string, string> = {
  [WALKTHROUGH_KEYS.applied]: 'apply',
  [WALKTHROUGH_KEYS.problemShown]: 'problems',
  [WALKTHROUGH_KEYS.quickFixUsed]: 'fix',
};
const WALKTHROUGH_ID = 'getStarted';

export class WalkthroughProgress implements vscode.Disposable {
  private readonly done = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly services: Services) {
    this.subscription = services.bus.onDidFinish(({ response }) => {
      if (response.success && !response.dry_run) {
        this.mark(WALKTHROUGH_KEYS.applied);
      } else if (!response.success && !userChoseOutcome(response)) {
        this.mark(WALKTHROUGH_KEYS.problemShown);
      }
    });
  }

  /** A quick fix (or another action on a shown problem) ran. */
  quickFixUsed(): void {
    this.mark(WALKTHROUGH_KEYS.quickFixUsed);
  }

  private mark(key: string): void {
    if (!this.done.has(key)) {
      this.done.add(key);
      void vscode.commands.executeCommand('setContext', key, true);
      const step = `${EXTENSION_ID}#${WALKTHROUGH_ID}#${STEP_OF_KEY[key]}`;
      // VS Code records the step even before the walkthrough is read, then answers that it does not know the step yet.
      void vscode.commands.executeCommand('welcome.markStepComplete', step)
        .then(undefined, (error: unknown) => this.services.log.debug(`walkthrough step ${step}: ${String(error)}`));
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
