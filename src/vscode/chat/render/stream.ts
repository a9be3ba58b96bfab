/** Writes rendered parts and buttons to a chat response stream. */
import * as vscode from 'vscode';
import { absoluteTarget } from '../../platform/workspacePaths';
import type { ChatButton } from './buttons';
import type { AnchorTarget, ChatPart } from './responseParts';
import { inlineCode } from './markdownText';

/** A file or a place in it; undefined when the path cannot be resolved to a file. */
function anchorValue(target: AnchorTarget): vscode.Uri | vscode.Location | undefined {
  const path = absoluteTarget(target.path);
  if (path === undefined) {
    return undefined;
  }
  const uri = vscode.Uri.file(path);
  if (target.startLine === undefined) {
    return uri;
  }
  const line = target.startLine - 1;
  if (target.endLine === undefined) {
    return new vscode.Location(uri, new vscode.Position(line, (target.column ?? 1) - 1));
  }
  // Whole lines: from the first line's start to the start of the line after the last.
  return new vscode.Location(uri, new vscode.Range(line, 0, target.endLine, 0));
}

export function writeParts(stream: vscode.ChatResponseStream, parts: readonly ChatPart[]): void {
  for (const part of parts) {
    if (part.kind === 'markdown') {
      stream.markdown(part.text);
      continue;
    }
    const value = anchorValue(part.target);
    if (value) {
      stream.anchor(value, part.title);
    } else {
      stream.markdown(inlineCode(part.target.path));
    }
  }
}

export function writeButtons(stream: vscode.ChatResponseStream, buttons: readonly ChatButton[]): void {
  for (const button of buttons) {
    stream.button(button);
  }
}
