import * as assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, engineLimits, readSettings, retryPolicy, type ConfigSource } from '../../src/vscode/platform/settings';

function source(values: Record<string, unknown>): ConfigSource {
  return { get: (key) => values[key] };
}

describe('settings: reading multiEdit.*', () => {
  it('gives the defaults when nothing is set', () => {
    assert.deepEqual(readSettings(source({})), DEFAULT_SETTINGS);
  });

  it('reads every key, nested retry and diagnostics keys included', () => {
    const settings = readSettings(source({
      contextLines: 3, maxMatchLocations: 9, maxFileSizeMB: 1.5, maxEnvelopeKB: 64, saveAfterEdit: 'never',
      protectedGlobs: ['**/secret/**'], allowOutsideWorkspace: true, confirmation: 'always',
      'retry.maxAttempts': 2, 'retry.maxTotalMs': 500, 'diagnostics.historyLimit': 7, 'diagnostics.confirmReplaceAll': false,
      insideIndentation: 'refuseMultiline', insideToken: 'warn', syntaxCheck: 'warn', 'diagnostics.confirmApplyAnyway': false,
      'statusBar.enabled': false, 'history.enabled': false,
    }));
    assert.deepEqual(settings, {
      contextLines: 3, maxMatchLocations: 9, maxFileSizeMB: 1.5, maxEnvelopeKB: 64, saveAfterEdit: 'never',
      protectedGlobs: ['**/secret/**'], allowOutsideWorkspace: true, confirmation: 'always',
      retryMaxAttempts: 2, retryMaxTotalMs: 500, historyLimit: 7, confirmReplaceAll: false, showStatusBar: false,
      insideIndentation: 'refuseMultiline', insideToken: 'warn', syntaxCheck: 'warn', confirmApplyAnyway: false, historyEnabled: false,
    });
  });

  it('falls back to the default for a value of the wrong type or an unknown enum member', () => {
    const settings = readSettings(source({
      contextLines: '3', saveAfterEdit: 'sometimes', confirmation: 42, allowOutsideWorkspace: 'yes', protectedGlobs: '**/.git/**',
      insideIndentation: 'never', insideToken: 'sometimes', syntaxCheck: 'sometimes',
    }));
    assert.equal(settings.insideIndentation, DEFAULT_SETTINGS.insideIndentation);
    assert.equal(settings.insideToken, DEFAULT_SETTINGS.insideToken);
    assert.equal(settings.syntaxCheck, 'refuse');
    assert.equal(settings.contextLines, DEFAULT_SETTINGS.contextLines);
    assert.equal(settings.saveAfterEdit, DEFAULT_SETTINGS.saveAfterEdit);
    assert.equal(settings.confirmation, DEFAULT_SETTINGS.confirmation);
    assert.equal(settings.allowOutsideWorkspace, false);
    assert.deepEqual(settings.protectedGlobs, DEFAULT_SETTINGS.protectedGlobs);
  });

  it('clamps numbers to their bounds, rounds integers, and drops blank globs', () => {
    const settings = readSettings(source({ contextLines: 1000, maxMatchLocations: 0, 'retry.maxAttempts': 2.6, protectedGlobs: ['', ' ', 'a/**', 7] }));
    assert.equal(settings.contextLines, 50);
    assert.equal(settings.maxMatchLocations, 1);
    assert.equal(settings.retryMaxAttempts, 3);
    assert.deepEqual(settings.protectedGlobs, ['a/**']);
  });

  it('an explicitly empty glob list protects nothing (the user chose it)', () => {
    assert.deepEqual(readSettings(source({ protectedGlobs: [] })).protectedGlobs, []);
  });

  it('converts to engine limits and retry policy in bytes and milliseconds', () => {
    const settings = readSettings(source({ maxFileSizeMB: 2, maxEnvelopeKB: 8, 'retry.maxTotalMs': 250 }));
    assert.deepEqual(engineLimits(settings), {
      contextLines: 6, maxMatchLocations: 5, maxFileBytes: 2 * 1024 * 1024, maxEnvelopeBytes: 8 * 1024, insideIndentation: 'refuseMultiline', insideToken: 'refuseSuspicious',
    });
    assert.deepEqual(retryPolicy(settings), { maxAttempts: 5, maxTotalMs: 250 });
  });
});
