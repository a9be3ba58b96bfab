/**
 * Ticks the Get Started walkthrough's steps on what the user really did: a request
 * applied (from any surface), a problem shown, a quick fix used. Each sets a context
 * key that a step's completionEvents waits for ("onContext:..."); VS Code remembers a
 * completed step, so the keys only need to be set once per session.
 */
import * as vscode from 'vscode';
import type { Services } from '../run/services';

export const WALKTHROUGH_KEYS = {
  applied: 'multiEdit.walkthrough.applied',
  problemShown: 'multiEdit.walkthrough.problemShown',
  quickFixUsed: 'multiEdit.walkthrough.quickFixUsed',
} as const;

const USER_CHOICES = new Set(['CANCELLED', 'USER_DENIED']);

export class WalkthroughProgress implements vscode.Disposable {
  private readonly done = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(services: Services) {
    this.subscription = services.bus.onDidFinish(({ response }) => {
      if (response.success && !response.dry_run) {
        this.mark(WALKTHROUGH_KEYS.applied);
      } else if (!response.success && !USER_CHOICES.has(response.error_code)) {
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
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
