/**
 * The hover on a Multi-Edit problem: what the edit expected (old_string) against what
 * the file has at the closest match, line by line, whitespace made visible, under the
 * problem's message and cause, with links to compare them in a diff editor or open
 * the request. A syntax regression shows the would-be lines instead.
 */
import * as vscode from 'vscode';
import { isLeadPlace } from '../../core/index';
import { COMMANDS } from '../platform/ids';
import { type Failure, failureRef } from './failure';
import type { FailureRegistry } from './failureRegistry';
import { nearMissComparisonOf, visibleWhitespace } from './nearMissComparison';

/** Line pairs shown in the hover, so that it fits a 900-pixel window under the problem's message; the diff editor shows all of them. */
const MAX_HOVER_LINES = 5;

/**
 * old_string and the file's text line by line, "-" for what the edit expects and "+" for
 * what the file has, in a diff block so the two read as a comparison.
 */
function lineByLine(expected: string, actual: string): string {
  const expectedLines = expected.split('\n');
  const actualLines = actual.split('\n');
  const pairs = Math.max(expectedLines.length, actualLines.length);
  const lines: string[] = [];
  for (let line = 0; line < Math.min(pairs, MAX_HOVER_LINES); line++) {
    if (line < expectedLines.length) lines.push(`- ${visibleWhitespace(expectedLines[line])}`);
    if (line < actualLines.length) lines.push(`+ ${visibleWhitespace(actualLines[line])}`);
  }
  if (pairs > MAX_HOVER_LINES) lines.push(`  … ${vscode.l10n.t('{0} more lines', pairs - MAX_HOVER_LINES)}`);
  return fenced(lines.join('\n')).replace(/^(`+)\n/, '$1diff\n');
}

function commandLink(title: string, command: string, failure: Failure): string {
  return `[${title}](command:${command}?${encodeURIComponent(JSON.stringify([failureRef(failure)]))})`;
}

function fenced(body: string): string {
  const fence = '`'.repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((run) => run[0].length + 1)));
  return `${fence}\n${body}\n${fence}`;
}

/**
 * A refused edit that would break the file's syntax: the lines as they would have been
 * written (the envelope's snippet), numbered, with each new error's line marked.
 */
function syntaxHover(failure: Failure): vscode.MarkdownString | undefined {
  const { envelope } = failure.request;
  const isLead = isLeadPlace(envelope, failure.fileIndex, failure.editIndex);
  const snippet = envelope.context?.snippet;
  const startLine = envelope.context?.start_line;
  if (failure.status !== 'failed' || failure.code !== 'SYNTAX_REGRESSION' || !isLead || snippet === undefined || startLine === undefined) {
    return undefined;
  }
  const errorLines = new Set((envelope.context?.syntax_errors ?? []).map((error) => error.line));
  const lines = snippet.replace(/\r?\n$/, '').split(/\r?\n/);
  const width = String(startLine + lines.length - 1).length;
  const body = lines.map((text, index) => {
    const line = startLine + index;
    return `${errorLines.has(line) ? '>' : ' '} ${String(line).padStart(width)}  ${text}`;
  }).join('\n');
  const markdown = new vscode.MarkdownString(undefined, true);
  markdown.isTrusted = { enabledCommands: [COMMANDS.applyAnyway, COMMANDS.openFailedRequest] };
  markdown.appendMarkdown(`**${vscode.l10n.t('Edit {0}: the file as it would be written, lines {1}-{2} (> marks a new syntax error)', (failure.editIndex ?? 0) + 1, startLine, startLine + lines.length - 1)}**\n\n`);
  markdown.appendMarkdown(`${fenced(body)}\n\n`);
  markdown.appendMarkdown(`${commandLink(`$(warning) ${vscode.l10n.t('Apply anyway')}`, COMMANDS.applyAnyway, failure)} · `
    + commandLink(`$(go-to-file) ${vscode.l10n.t('Open the failed request')}`, COMMANDS.openFailedRequest, failure));
  return markdown;
}

/** The cause is in the problem's own message, just above in the same hover; this adds the text itself. */
export function failureHover(failure: Failure, document: vscode.TextDocument): vscode.MarkdownString | undefined {
  const syntax = syntaxHover(failure);
  if (syntax) {
    return syntax;
  }
  const nearMiss = nearMissComparisonOf(failure, document);
  if (!nearMiss) {
    return undefined;
  }
  const markdown = new vscode.MarkdownString(undefined, true);
  markdown.isTrusted = { enabledCommands: [COMMANDS.compareWithFile, COMMANDS.openFailedRequest] };
  markdown.appendMarkdown(`**${vscode.l10n.t('Edit {0}: old_string (−) against the file (+) from line {1}', (failure.editIndex ?? 0) + 1, nearMiss.firstLine + 1)}**\n\n`);
  // The links come before the text, so they show without scrolling however long the text is.
  markdown.appendMarkdown(`${commandLink(`$(diff) ${vscode.l10n.t('Compare in a diff editor')}`, COMMANDS.compareWithFile, failure)} · `
    + `${commandLink(`$(go-to-file) ${vscode.l10n.t('Open the failed request')}`, COMMANDS.openFailedRequest, failure)}\n\n`);
  markdown.appendMarkdown(`${lineByLine(nearMiss.oldString, nearMiss.fileText)}\n\n`);
  markdown.appendMarkdown(`*${vscode.l10n.t('· space, → tab, ⍽ non-breaking space, ␍ carriage return')}*`);
  return markdown;
}

export class FailureHoverProvider implements vscode.HoverProvider {
  constructor(private readonly failures: FailureRegistry) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    for (const failure of this.failures.failuresAt(document.uri, position)) {
      const markdown = failureHover(failure, document);
      if (markdown && failure.placement) {
        return new vscode.Hover(markdown, failure.placement.range);
      }
    }
    return undefined;
  }
}

export function registerFailureHover(context: vscode.ExtensionContext, failures: FailureRegistry): void {
  context.subscriptions.push(vscode.languages.registerHoverProvider([{ scheme: 'file' }, { scheme: 'untitled' }], new FailureHoverProvider(failures)));
}
