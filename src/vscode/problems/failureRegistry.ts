/**
 * The one DiagnosticCollection and what stands behind each of its diagnostics:
 * the failed request (its record and envelope) and where the failure sits.
 * Quick fixes and commands find a failure by its diagnostic or by its id, and a
 * failed request by its id.
 */
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../platform/ids';
import type { FailedRequest, Failure, FailureDraft, Placement } from './failure';
import { shiftRange } from './rangeShift';
import { pathKey } from '../platform/workspacePaths';
import { toDiagnostic } from './toDiagnostic';

function sameDiagnostic(a: vscode.Diagnostic, b: vscode.Diagnostic): boolean {
  return a.message === b.message && a.range.isEqual(b.range) && a.severity === b.severity;
}

export class FailureRegistry implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  /**
   * Failed requests, oldest first, bounded by the history limit. A request stays
   * here after its diagnostics clear, so it can still be re-run or inspected.
   */
  private history: FailedRequest[] = [];
  private readonly failures = new Map<number, Failure>();
  private nextId = 1;

  constructor(private readonly historyLimit: () => number) {}

  /** Adds a failed request's failures; they replace older failures of the files it targets. */
  add(saved: FailedRequest, drafts: readonly FailureDraft[]): Failure[] {
    this.removeWhere((failure) => this.targetsAny(failure, saved.targets), false);
    const ids = drafts.map(() => this.nextId++);
    const added = drafts.map((draft, index): Failure => {
      const { dependsOnDraft, ...rest } = draft;
      return { ...rest, id: ids[index], request: saved, ...(dependsOnDraft !== undefined ? { dependsOn: ids[dependsOnDraft] } : {}) };
    });
    for (const failure of added) {
      this.failures.set(failure.id, failure);
    }
    this.history.push(saved);
    this.dropOldest();
    this.publish();
    return added;
  }

  get(id: number): Failure | undefined {
    return this.failures.get(id);
  }

  request(id: number): FailedRequest | undefined {
    return this.history.find((request) => request.id === id);
  }

  latestRequest(): FailedRequest | undefined {
    return this.history[this.history.length - 1];
  }

  /** The failures still shown for the request with this id. */
  failuresOfRequest(requestId: number): Failure[] {
    return [...this.failures.values()].filter((failure) => failure.request.id === requestId);
  }

  /** The failure behind a diagnostic as the editor hands it back (possibly a copy). */
  failureFor(uri: vscode.Uri, diagnostic: vscode.Diagnostic): Failure | undefined {
    if (diagnostic.source !== DIAGNOSTIC_SOURCE) {
      return undefined;
    }
    for (const failure of this.failures.values()) {
      if (failure.diagnostic && failure.placement?.uri.toString() === uri.toString() && sameDiagnostic(failure.diagnostic, diagnostic)) {
        return failure;
      }
    }
    return undefined;
  }

  /** Failures shown at a position, errors first. */
  failuresAt(uri: vscode.Uri, position: vscode.Position): Failure[] {
    return [...this.failures.values()]
      .filter((failure) => failure.placement?.uri.toString() === uri.toString() && failure.placement.range.contains(position))
      .sort((a, b) => (a.status === b.status ? 0 : a.status === 'failed' ? -1 : 1));
  }

  /** The newest failed edit still shown. */
  latest(): Failure | undefined {
    return [...this.failures.values()].reverse().find((failure) => failure.status === 'failed');
  }

  /** A failure and the skipped edits that wait for it. */
  dismiss(id: number): void {
    this.removeWhere((failure) => failure.id === id || failure.dependsOn === id);
  }

  clearAll(): void {
    this.removeWhere(() => true);
  }

  /** A later request for these files supersedes what was shown for them. */
  clearTargets(paths: readonly string[]): void {
    this.removeWhere((failure) => this.targetsAny(failure, paths));
  }

  /** Follows the user's typing: ranges move with it, and an edit on a failed range clears the file. */
  applyTextChanges(uri: vscode.Uri, changes: readonly vscode.TextDocumentContentChangeEvent[]): void {
    const key = uri.toString();
    const affected = [...this.failures.values()].flatMap((failure) => (
      failure.placement?.uri.toString() === key ? [{ failure, placement: failure.placement }] : []
    ));
    if (affected.length === 0 || changes.length === 0) {
      return;
    }
    const moved: Placement[] = [];
    for (const { placement } of affected) {
      const shifted = this.shiftPlacement(placement, changes);
      if (!shifted) {
        this.removeWhere((candidate) => candidate.placement?.uri.toString() === key);
        return;
      }
      moved.push(shifted);
    }
    affected.forEach(({ failure }, index) => {
      failure.placement = moved[index];
    });
    this.publish();
  }

  /** Applies a lowered history limit at once. */
  trimHistory(): void {
    if (this.dropOldest()) {
      this.publish();
    }
  }

  dispose(): void {
    this.collection.dispose();
  }

  private shiftPlacement(placement: Placement, changes: readonly vscode.TextDocumentContentChangeEvent[]): Placement | undefined {
    let ranges = [placement.range, ...placement.matches.map((location) => location.range)];
    for (const change of changes) {
      const next: vscode.Range[] = [];
      for (const range of ranges) {
        const shifted = shiftRange(range, change);
        if (shifted.hit) {
          return undefined;
        }
        next.push(shifted.range);
      }
      ranges = next;
    }
    return {
      uri: placement.uri,
      range: ranges[0],
      matches: placement.matches.map((location, index) => new vscode.Location(location.uri, ranges[index + 1])),
    };
  }

  /** Keeps only the newest failed requests, as many as the history limit allows. */
  private dropOldest(): boolean {
    const limit = Math.max(1, this.historyLimit());
    if (this.history.length <= limit) {
      return false;
    }
    const dropped = new Set(this.history.slice(0, this.history.length - limit));
    this.history = this.history.slice(-limit);
    this.removeWhere((failure) => dropped.has(failure.request), false);
    return true;
  }

  private targetsAny(failure: Failure, paths: readonly string[]): boolean {
    if (failure.targetPath === undefined) {
      return false;
    }
    const target = pathKey(failure.targetPath);
    return paths.some((path) => pathKey(path) === target);
  }

  /** Drops matching failures; publishes when anything went. */
  private removeWhere(predicate: (failure: Failure) => boolean, publish = true): void {
    let removed = false;
    for (const failure of [...this.failures.values()]) {
      if (predicate(failure)) {
        this.failures.delete(failure.id);
        removed = true;
      }
    }
    if (removed && publish) {
      this.publish();
    }
  }

  /** Rebuilds the collection from the failures: one set() per shown file, a delete for each emptied one. */
  private publish(): void {
    const byUri = new Map<string, { uri: vscode.Uri; diagnostics: vscode.Diagnostic[] }>();
    for (const failure of this.failures.values()) {
      if (!failure.placement) {
        failure.diagnostic = undefined;
        continue;
      }
      failure.diagnostic = toDiagnostic(failure, failure.placement);
      const key = failure.placement.uri.toString();
      const entry = byUri.get(key) ?? { uri: failure.placement.uri, diagnostics: [] };
      entry.diagnostics.push(failure.diagnostic);
      byUri.set(key, entry);
    }
    this.collection.forEach((uri) => {
      if (!byUri.has(uri.toString())) {
        this.collection.delete(uri);
      }
    });
    for (const { uri, diagnostics } of byUri.values()) {
      this.collection.set(uri, diagnostics);
    }
  }
}
