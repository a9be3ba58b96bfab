import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Features are registered here, one registerX(context) each.
}

export function deactivate(): void {}
