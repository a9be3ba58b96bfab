/** The chat's follow-ups and buttons: offered only where they can help, built from real responses. */
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { commitPlan, planRequest } from '../../src/core/engine/engine';
import type { ErrorCode } from '../../src/core/contract/errorCodes';
import { formatForModel } from '../../src/core/contract/format';
import { COMMANDS } from '../../src/vscode/platform/ids';
import type { EngineResponse, ErrorEnvelope } from '../../src/core/contract/schemas';
import { chatButtons } from '../../src/vscode/chat/render/buttons';
import { CONTINUE_PROMPT, FIX_PROMPT, followupsFor, type RequestCommand, type RequestTurn } from '../../src/vscode/chat/turnMetadata';
import type { Failure } from '../../src/vscode/problems/failure';
import { assertValidResponse, failureOf, recordingSleep, run } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';

const FILE = '/w/a.ts';
const TEXT = 'alpha\nbeta\ngamma\nbeta\n';
const REQUEST = { file_path: FILE, edits: [{ old_string: 'alpha', new_string: 'ALPHA' }] };

function turnFor(command: RequestCommand, request: object, response: EngineResponse): RequestTurn {
  return {
    kind: 'request',
    command,
    request: request as RequestTurn['request'],
    success: response.success,
    dryRun: response.dry_run === true,
    ...(response.success ? {} : { nextAction: response.next_action.action }),
    modelText: formatForModel(response),
  };
}

async function staleEnvelope(): Promise<ErrorEnvelope> {
  const store = new MemoryStore({ [FILE]: TEXT });
  const planned = await planRequest('multi_edit', REQUEST, { store });
  assert.ok(planned.ok);
  store.put(FILE, `${TEXT}changed meanwhile\n`);
  const response = await commitPlan(planned.plan, { store });
  assertValidResponse(response);
  return failureOf(response);
}

describe('chat follow-ups', () => {
  it('offers to apply a previewed request, as a real run', async () => {
    const response = await run('multi_edit', { ...REQUEST, dry_run: true }, { store: new MemoryStore({ [FILE]: TEXT }) });
    assert.deepEqual(followupsFor(turnFor('preview', REQUEST, response)), [{ command: 'apply', prompt: JSON.stringify(REQUEST), label: 'Apply these edits' }]);
    const askedForDryRun = turnFor('apply', { ...REQUEST, dry_run: true }, response);
    assert.deepEqual(followupsFor(askedForDryRun).map((followup) => JSON.parse(followup.prompt)), [REQUEST]);
  });

  it('offers nothing after a request that applied', async () => {
    const response = await run('multi_edit', REQUEST, { store: new MemoryStore({ [FILE]: TEXT }) });
    assert.deepEqual(followupsFor(turnFor('apply', REQUEST, response)), []);
  });

  it('offers the same command again when the file changed or was busy', async () => {
    const stale = await staleEnvelope();
    assert.equal(stale.next_action.action, 'reread_and_retry');
    assert.deepEqual(followupsFor(turnFor('apply', REQUEST, stale)), [{ command: 'apply', prompt: JSON.stringify(REQUEST), label: 'Apply the request again' }]);
    const store = new MemoryStore({ [FILE]: TEXT });
    store.failOn('read', FILE, { code: 'FILE_BUSY' });
    const busy = failureOf(await run('multi_edit', REQUEST, { store, sleep: recordingSleep().sleep }));
    assert.equal(busy.next_action.action, 'retry_later');
    assert.deepEqual(followupsFor(turnFor('preview', REQUEST, busy)), [{ command: 'preview', prompt: JSON.stringify(REQUEST), label: 'Preview the request again' }]);
  });

  it('offers the model the fix when an edit itself is wrong, never a plain re-run', async () => {
    const response = await run('multi_edit', { file_path: FILE, edits: [{ old_string: 'beta', new_string: 'B' }] }, { store: new MemoryStore({ [FILE]: TEXT }) });
    assert.equal(failureOf(response).error_code, 'AMBIGUOUS_MATCH');
    assert.deepEqual(followupsFor(turnFor('apply', REQUEST, response)), [{ prompt: FIX_PROMPT, label: 'Ask the model to fix the failing edits' }]);
  });

  it('offers nothing when the user must decide or nothing can help', async () => {
    const outside = failureOf(await run('multi_edit', REQUEST, {
      store: new MemoryStore({ [FILE]: TEXT }),
      checkPath: () => ({ ok: false, code: 'OUTSIDE_WORKSPACE', detail: 'outside every workspace folder' }),
    }));
    assert.equal(outside.next_action.action, 'ask_user');
    assert.deepEqual(followupsFor(turnFor('apply', REQUEST, outside)), []);
    const store = new MemoryStore({ [FILE]: TEXT });
    store.failOn('write', FILE, { code: 'READ_ONLY_FS' });
    const readOnly = failureOf(await run('multi_edit', REQUEST, { store }));
    assert.equal(readOnly.next_action.action, 'stop');
    assert.deepEqual(followupsFor(turnFor('apply', REQUEST, readOnly)), []);
  });

  it('offers to continue a conversation only when the round limit stopped it', () => {
    const applied = { round: 1, tool: 'multi_edit', success: true };
    assert.deepEqual(followupsFor({ kind: 'conversation', stoppedAtRoundLimit: true, calls: [applied] }), [{ prompt: CONTINUE_PROMPT, label: 'Continue' }]);
    assert.deepEqual(followupsFor({ kind: 'conversation', stoppedAtRoundLimit: false, calls: [applied] }), []);
  });

  it('offers /explain when a conversation ends on a failed tool call, not when the model recovered', () => {
    const failed = { round: 1, tool: 'multi_edit', success: false, errorCode: 'MATCH_NOT_FOUND' };
    const applied = { round: 2, tool: 'multi_edit', success: true };
    const explain = { command: 'explain', prompt: '', label: 'Explain the failure' };
    assert.deepEqual(followupsFor({ kind: 'conversation', stoppedAtRoundLimit: false, calls: [failed] }), [explain]);
    assert.deepEqual(followupsFor({ kind: 'conversation', stoppedAtRoundLimit: true, calls: [applied, failed] }), [{ prompt: CONTINUE_PROMPT, label: 'Continue' }, explain]);
    assert.deepEqual(followupsFor({ kind: 'conversation', stoppedAtRoundLimit: false, calls: [failed, applied] }), []);
    assert.deepEqual(followupsFor({ kind: 'conversation', stoppedAtRoundLimit: true }), [], 'metadata of an older version has no calls and earns nothing');
  });

  it('ignores metadata it did not write', () => {
    for (const metadata of [undefined, null, 'request', {}, { kind: 'other' }]) {
      assert.deepEqual(followupsFor(metadata), []);
    }
  });
});

describe('chat buttons', () => {
  /** A failure as the diagnostics keep it; `matches` counts its placed match locations. */
  function failure(envelope: ErrorEnvelope, id: number, fields: { code: ErrorCode; editIndex?: number; status?: 'failed' | 'skipped'; matches?: number }): Failure {
    const request = { id: 1, tool: 'multi_edit' as const, response: envelope, envelope, source: 'chat' as const, targets: [FILE] };
    const location = {} as vscode.Location;
    return {
      id,
      request,
      status: fields.status ?? 'failed',
      code: fields.code,
      fileIndex: 0,
      ...(fields.editIndex !== undefined ? { editIndex: fields.editIndex } : {}),
      totalMatches: fields.matches,
      hints: envelope.recovery_hints,
      message: envelope.message,
      placement: { uri: {} as vscode.Uri, range: {} as vscode.Range, matches: Array.from({ length: fields.matches ?? 0 }, () => location) },
    };
  }

  it('offers peek, replace_all and the envelope for the ambiguous edit the envelope leads with', async () => {
    const envelope = failureOf(await run('multi_edit', {
      file_path: FILE, edits: [{ old_string: 'gamma', new_string: 'zzz' }, { old_string: 'beta', new_string: 'B' }],
    }, { store: new MemoryStore({ [FILE]: 'alpha\nbeta\ngamma\nbeta\n' }) }));
    assert.equal(envelope.edit_index, 1);
    const failures = [
      failure(envelope, 5, { code: 'AMBIGUOUS_MATCH', editIndex: 1, matches: 2 }),
      failure(envelope, 6, { code: 'MATCH_NOT_FOUND', editIndex: 2 }),
    ];
    assert.deepEqual(chatButtons(failures, envelope), [
      { title: 'Peek all 2 match locations', command: COMMANDS.peekMatches, arguments: [{ failureId: 5, requestId: 1 }] },
      { title: 'Retry edit 2 with replace_all', command: COMMANDS.retryWithReplaceAll, arguments: [{ failureId: 5, requestId: 1 }] },
      { title: 'Show envelope', command: COMMANDS.showEnvelope, arguments: [{ failureId: 5, requestId: 1 }] },
    ]);
  });

  it('offers a re-run for a missing match, and nothing when no failure is shown', async () => {
    const envelope = failureOf(await run('multi_edit', { file_path: FILE, edits: [{ old_string: 'delta', new_string: 'D' }] }, { store: new MemoryStore({ [FILE]: TEXT }) }));
    const titles = chatButtons([failure(envelope, 9, { code: 'MATCH_NOT_FOUND', editIndex: 0 })], envelope).map((button) => button.title);
    assert.deepEqual(titles, ['Re-run the request', 'Show envelope']);
    assert.deepEqual(chatButtons([], envelope), []);
    assert.deepEqual(chatButtons([failure(envelope, 9, { code: 'MATCH_NOT_FOUND', editIndex: 0, status: 'skipped' })], envelope), []);
  });
});
