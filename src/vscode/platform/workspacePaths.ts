/** The workspace as requests see it: its folders, the path policy over them, and paths as files and as people read them. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { foldedName, nameRulesAt, nameRulesFor } from '../../shared/nameRules';
import { PLATFORM_IGNORES_CASE, resolveRequestedPath, type PathPolicyConfig, type WorkspaceFolderInfo } from '../../shared/pathPolicy';
import type { MultiEditSettings } from './settings';

export function currentWorkspaceFolders(): WorkspaceFolderInfo[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => ({ name: folder.name, path: folder.uri.fsPath, nameRules: nameRulesAt(folder.uri.fsPath) }));
}

export function pathPolicyConfig(settings: MultiEditSettings, outsideWorkspaceConfirmed = false): PathPolicyConfig {
  return {
    folders: currentWorkspaceFolders(),
    protectedGlobs: settings.protectedGlobs,
    allowOutsideWorkspace: settings.allowOutsideWorkspace || outsideWorkspaceConfirmed,
    ignoreCase: PLATFORM_IGNORES_CASE,
  };
}

/** How a path reads in summaries: relative to its workspace folder (named when several are open); other paths as given. */
export function displayPath(requestedPath: string): string {
  if (!path.isAbsolute(requestedPath)) {
    return requestedPath;
  }
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return vscode.workspace.asRelativePath(vscode.Uri.file(requestedPath), multiRoot);
}

/** The absolute path a requested path stands for, or undefined when it cannot be resolved. */
export function absoluteTarget(requested: string | undefined): string | undefined {
  if (requested === undefined) {
    return undefined;
  }
  const resolved = resolveRequestedPath(requested, currentWorkspaceFolders());
  return resolved.ok ? resolved.path : undefined;
}

/** Paths compare as the file system that holds them compares names (probed once per device), not as the platform usually does. */
export function pathKey(absolutePath: string): string {
  const normalized = path.normalize(absolutePath);
  return foldedName(normalized, nameRulesFor(normalized));
}

export async function isFile(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}

export async function openDocument(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  try {
    return await vscode.workspace.openTextDocument(uri);
  } catch {
    return undefined;
  }
}
