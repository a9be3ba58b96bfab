/** The chat participant's pure parts: what a response renders to, and how prompts and tool results are read. */
import * as assert from 'node:assert/strict';
import { planRequest, commitPlan } from '../../src/core/engine/engine';
import { envelopeFor } from '../../src/core/contract/envelope';
import { ALL_ERROR_CODES, errorDocLink } from '../../src/core/contract/errorCodes';
import { formatForModel } from '../../src/core/contract/format';
import type { ErrorEnvelope } from '../../src/core/contract/schemas';
import { renderResponse, type AnchorTarget, type ChatPart } from '../../src/vscode/chat/render/responseParts';
import { codeBlock, escapeMarkdown, inlineCode, languageOf } from '../../src/vscode/chat/render/markdownText';
import { parseRequestPrompt, parseToolText } from '../../src/vscode/chat/slashCommands/promptRequest';
import { assertValidResponse, failureOf, run, successOf } from './helpers/engineRun';
import { MemoryStore } from './helpers/memoryStore';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../src/shared/syntax/fileSyntaxChecker';

const FILE = '/w/src/app.ts';
const OTHER = '/w/src/util.ts';
const TEXT = [
  'function greet(name: string) {',
  '  const greeting = "hello";',
  '  return `${greeting} ${name}`;',
  '}',
  'const a = 1;',
  'const a = 1;',
  'const a = 1;',
  '',
].join('\n');

function markdownOf(parts: readonly ChatPart[]): string {
  return parts.map((part) => (part.kind === 'markdown' ? part.text : `<anchor ${part.title}>`)).join('');
}

function anchorsOf(parts: readonly ChatPart[]): { target: AnchorTarget; title: string }[] {
  return parts.flatMap((part) => (part.kind === 'anchor' ? [{ target: part.target, title: part.title }] : []));
}

/** The bodies of the fenced blocks in the markdown, with their info strings. */
function codeBlocksOf(parts: readonly ChatPart[]): { language: string; body: string }[] {
  const blocks: { language: string; body: string }[] = [];
  const fence = /^(`{3,})(\w*)\n([\s\S]*?)^\1$/gm;
  for (const match of markdownOf(parts).matchAll(fence)) {
    blocks.push({ language: match[2], body: match[3] });
  }
  return blocks;
}

function store(): MemoryStore {
  return new MemoryStore({ [FILE]: TEXT, [OTHER]: 'export const limit = 3;\n' });
}

describe('chat rendering: successes', () => {
  it('shows the summary, an anchor to each edited file and the diff of include_diff in a diff block', async () => {
    const response = successOf(await run('multi_edit', {
      file_path: FILE, include_diff: true, edits: [{ old_string: '"hello"', new_string: '"hi"' }],
    }, { store: store() }));
    const parts = renderResponse(response);
    assert.ok(markdownOf(parts).startsWith(`**${escapeMarkdown(response.summary)}**`));
    assert.deepEqual(anchorsOf(parts), [{ target: { path: FILE }, title: 'app.ts' }]);
    assert.match(markdownOf(parts), /<anchor app\.ts> · 1 edit, 1 replacement/);
    const diffs = codeBlocksOf(parts);
    assert.equal(diffs.length, 1);
    assert.equal(diffs[0].language, 'diff');
    assert.equal(diffs[0].body, response.files[0].diff);
  });

  it('shows one anchor and one diff per file of a multi-file dry run', async () => {
    const response = successOf(await run('multi_edit_files', {
      dry_run: true,
      files: [
        { file_path: FILE, edits: [{ old_string: '"hello"', new_string: '"hi"' }] },
        { file_path: OTHER, edits: [{ old_string: 'limit = 3', new_string: 'limit = 5' }] },
      ],
    }, { store: store() }));
    const parts = renderResponse(response);
    assert.match(markdownOf(parts), /Dry run/);
    assert.deepEqual(anchorsOf(parts).map((anchor) => anchor.target.path), [FILE, OTHER]);
    assert.deepEqual(codeBlocksOf(parts).map((block) => block.body), response.files.map((file) => file.diff));
  });

  it('shows no code block when the response has no diff', async () => {
    const response = successOf(await run('multi_edit', { file_path: FILE, edits: [{ old_string: '"hello"', new_string: '"hi"' }] }, { store: store() }));
    assert.deepEqual(codeBlocksOf(renderResponse(response)), []);
  });
});

describe('chat rendering: failures', () => {
  it('shows a near miss: summary, linked code, message, cause, hints, the snippet\'s lines and the raw snippet', async () => {
    const envelope = failureOf(await run('multi_edit', {
      file_path: FILE, edits: [{ old_string: '    const greeting = "hello";', new_string: 'x' }],
    }, { store: store() }));
    assert.equal(envelope.diagnosis?.kind, 'INDENTATION');
    const parts = renderResponse(envelope);
    const text = markdownOf(parts);
    const lines = text.split('\n');
    assert.equal(lines[0], `**${escapeMarkdown(envelope.summary)}**`);
    assert.ok(text.includes(`[\`MATCH_NOT_FOUND\`](${errorDocLink('MATCH_NOT_FOUND')}) ${escapeMarkdown(envelope.message)}`));
    assert.ok(text.includes(`**Cause:** \`INDENTATION\` ${escapeMarkdown(envelope.diagnosis.detail)}`));
    for (const hint of envelope.recovery_hints) {
      assert.ok(text.includes(`- ${escapeMarkdown(hint)}\n`), hint);
    }
    const snippet = envelope.context?.snippet ?? '';
    const startLine = envelope.context?.start_line ?? 0;
    const endLine = startLine + snippet.split('\n').filter((_, index, all) => index < all.length - 1 || all[index] !== '').length - 1;
    assert.deepEqual(anchorsOf(parts), [{ target: { path: FILE, startLine, endLine }, title: `app.ts, lines ${startLine}–${endLine}` }]);
    assert.deepEqual(codeBlocksOf(parts), [{ language: 'ts', body: snippet }]);
  });

  it('anchors a near miss at the line that differs when the diagnostics located it, instead of the snippet\'s lines', async () => {
    const envelope = failureOf(await run('multi_edit', {
      file_path: FILE, edits: [{ old_string: '    const greeting = "hello";', new_string: 'x' }],
    }, { store: store() }));
    const differsAt = { path: FILE, startLine: 2, column: 1 };
    const parts = renderResponse(envelope, differsAt);
    assert.deepEqual(anchorsOf(parts), [{ target: differsAt, title: 'app.ts:2' }]);
    assert.ok(markdownOf(parts).includes('Differs at: <anchor app.ts:2>'));
    assert.deepEqual(codeBlocksOf(parts), [{ language: 'ts', body: envelope.context?.snippet ?? '' }], 'the raw snippet is still shown');
  });

  it('anchors every reported match of an ambiguous edit at its line and column, and counts the rest', async () => {
    const envelope = failureOf(await run('multi_edit', {
      file_path: FILE, edits: [{ old_string: 'a = 1', new_string: 'a = 2' }],
    }, { store: store(), limits: { maxMatchLocations: 2 } }));
    assert.equal(envelope.error_code, 'AMBIGUOUS_MATCH');
    const parts = renderResponse(envelope);
    assert.deepEqual(anchorsOf(parts), [
      { target: { path: FILE, startLine: 5, column: 7 }, title: 'app.ts:5:7 (match 1 of 3)' },
      { target: { path: FILE, startLine: 6, column: 7 }, title: 'app.ts:6:7 (match 2 of 3)' },
    ]);
    assert.match(markdownOf(parts), /<anchor app\.ts:6:7 \(match 2 of 3\)>, and 1 more\n/);
  });

  it('lists every other failing edit with its own cause and place', async () => {
    const envelope = failureOf(await run('multi_edit', {
      file_path: FILE,
      edits: [
        { old_string: 'a = 1', new_string: 'a = 2' },
        { old_string: '    const greeting = "hello";', new_string: 'x' },
      ],
    }, { store: store() }));
    const secondary = envelope.edit_status.find((status) => status.edit_index === 1);
    assert.equal(secondary?.error_code, 'MATCH_NOT_FOUND');
    assert.equal(secondary.diagnosis?.kind, 'INDENTATION');
    const parts = renderResponse(envelope);
    const text = markdownOf(parts);
    assert.ok(text.includes(`**Other edits**\n\nEdit 2 · \`MATCH_NOT_FOUND\` ${escapeMarkdown(secondary.message)}\n\n`
      + `**Cause:** \`INDENTATION\` ${escapeMarkdown(secondary.diagnosis.detail)}`), text);
    const start = secondary.context?.start_line;
    assert.ok(start !== undefined);
    assert.ok(anchorsOf(parts).some((anchor) => anchor.target.startLine === start && anchor.target.endLine !== undefined));
  });

  it('labels the edits of a multi-file request by file and edit, with each file\'s path', async () => {
    const envelope = failureOf(await run('multi_edit_files', {
      files: [
        { file_path: FILE, edits: [{ old_string: 'nothing like it', new_string: 'x' }] },
        { file_path: OTHER, edits: [{ old_string: 'limit = 9', new_string: 'limit = 5' }] },
      ],
    }, { store: store() }));
    const text = markdownOf(renderResponse(envelope));
    const other = envelope.edit_status.find((status) => status.file_index === 1);
    assert.ok(other);
    assert.ok(text.includes(`File 2, edit 1 · \`${other.error_code}\``), text);
    assert.ok(anchorsOf(renderResponse(envelope)).some((anchor) => anchor.target.path === OTHER));
  });

  it('marks edits that wait on a failed one as skipped, without anchors of their own', async () => {
    const envelope = failureOf(await run('multi_edit', {
      file_path: FILE,
      edits: [
        { old_string: 'missing text', new_string: 'inserted marker' },
        { old_string: 'inserted marker', new_string: 'final marker' },
      ],
    }, { store: store() }));
    const skipped = envelope.edit_status.find((status) => status.status === 'skipped');
    assert.ok(skipped, JSON.stringify(envelope.edit_status));
    const parts = renderResponse(envelope);
    assert.ok(markdownOf(parts).includes(`Edit 2 · \`skipped\` ${escapeMarkdown(skipped.message)}\n\n`));
    assert.equal(anchorsOf(parts).length, 1, 'only the failed edit is anchored');
  });

  it('points a file-level failure at the file itself', async () => {
    const envelope = failureOf(await run('multi_edit', { file_path: '/w/src/gone.ts', edits: [{ old_string: 'a', new_string: 'b' }] }, { store: store() }));
    assert.equal(envelope.error_code, 'FILE_NOT_FOUND');
    assert.deepEqual(anchorsOf(renderResponse(envelope)), [{ target: { path: '/w/src/gone.ts' }, title: 'gone.ts' }]);
  });

  it('says when a stale file stopped the commit', async () => {
    const files = store();
    const planned = await planRequest('multi_edit', { file_path: FILE, edits: [{ old_string: '"hello"', new_string: '"hi"' }] }, { store: files });
    assert.ok(planned.ok);
    files.put(FILE, `${TEXT}// changed meanwhile\n`);
    const response = await commitPlan(planned.plan, { store: files });
    assertValidResponse(response);
    const envelope = failureOf(response);
    assert.equal(envelope.error_code, 'STALE_CONTENT');
    assert.match(markdownOf(renderResponse(envelope)), /`STALE_CONTENT`/);
  });

  it('shows a syntax regression as the text it would write, anchored at the first new error', async () => {
    const syntaxChecker = fileSyntaxChecker({ wasmDirectory: treeSitterWasmDirectory() });
    const envelope = failureOf(await run('multi_edit', { file_path: FILE, edits: [{ old_string: '"hello";', new_string: '"hello;' }] }, { store: store(), syntaxChecker }));
    assert.equal(envelope.error_code, 'SYNTAX_REGRESSION');
    const parts = renderResponse(envelope);
    const [error] = envelope.context?.syntax_errors ?? [];
    assert.ok(error);
    assert.deepEqual(anchorsOf(parts).at(-1), { target: { path: FILE, startLine: error.line, column: error.column }, title: `app.ts:${error.line}:${error.column}` });
    const text = markdownOf(parts);
    assert.match(text, /First new syntax error: <anchor app\.ts:\d+:\d+>/);
    assert.match(text, /Text as it would be written \(lines? [\d–]+ of app\.ts\):/);
    assert.doesNotMatch(text, /closest/i);
    assert.ok(codeBlocksOf(parts).some((block) => block.body.includes('"hello;')), 'the snippet is the new text');
  });

  it('shows a snippet holding backticks verbatim, inside a longer fence', async () => {
    const fenced = 'Example:\n```ts\nconst x = 1;\n```\nEnd.\n';
    const files = new MemoryStore({ '/w/README.md': fenced });
    const envelope = failureOf(await run('multi_edit', { file_path: '/w/README.md', edits: [{ old_string: 'const x = 2;', new_string: 'y' }] }, { store: files }));
    const blocks = codeBlocksOf(renderResponse(envelope));
    assert.deepEqual(blocks, [{ language: 'md', body: envelope.context?.snippet }]);
    assert.ok(markdownOf(renderResponse(envelope)).includes('````md\n'));
  });

  it('renders every error code with its summary, linked code and message', () => {
    for (const code of ALL_ERROR_CODES) {
      const envelope: ErrorEnvelope = envelopeFor(code, `what went wrong for ${code}`);
      const text = markdownOf(renderResponse(envelope));
      assert.ok(text.startsWith(`**${escapeMarkdown(envelope.summary)}**\n\n[\`${code}\`](${errorDocLink(code)}) `), code);
    }
  });

  it('escapes markdown in messages, so a path or a snippet in a message shows as written', () => {
    const envelope = envelopeFor('FILE_NOT_FOUND', 'Cannot edit /w/*draft*/[1]_a.ts: <no such file>', { file_path: '/w/*draft*/[1]_a.ts' });
    const text = markdownOf(renderResponse(envelope));
    assert.ok(text.includes('Cannot edit /w/\\*draft\\*/\\[1\\]\\_a.ts: \\<no such file\\>'), text);
  });
});

describe('chat rendering: markdown helpers', () => {
  it('folds line breaks and escapes markdown specials', () => {
    assert.equal(escapeMarkdown('a *b*\n  c_d `e` #f'), 'a \\*b\\* c\\_d \\`e\\` \\#f');
  });

  it('quotes inline code with a fence longer than the backticks inside', () => {
    assert.equal(inlineCode('plain'), '`plain`');
    assert.equal(inlineCode('a `b` c'), '``a `b` c``');
    assert.equal(inlineCode('`edge'), '`` `edge ``');
  });

  it('fences code with at least three backticks, more than any run inside', () => {
    assert.equal(codeBlock('x\n', 'ts'), '```ts\nx\n```\n');
    assert.equal(codeBlock('a ````` b'), '``````\na ````` b\n``````\n');
  });

  it('takes the fence language from a plain file extension only', () => {
    assert.equal(languageOf('/w/src/App.TSX'), 'tsx');
    assert.equal(languageOf('C:\\w\\notes.md'), 'md');
    assert.equal(languageOf('/w/Makefile'), '');
    assert.equal(languageOf('/w/.env'), '');
    assert.equal(languageOf('/w/odd.ext-with-dash'), '');
  });
});

describe('chat prompts: the request in /apply and /preview', () => {
  const request = { file_path: FILE, edits: [{ old_string: 'a', new_string: 'b' }] };

  it('reads a fenced json block, with text around it', () => {
    const prompt = `please apply this:\n\`\`\`json\n${JSON.stringify(request, null, 2)}\n\`\`\`\nthanks`;
    assert.deepEqual(parseRequestPrompt(prompt), { ok: true, input: request });
  });

  it('reads an unmarked fenced block and bare JSON', () => {
    assert.deepEqual(parseRequestPrompt(`\`\`\`\n${JSON.stringify(request)}\n\`\`\``), { ok: true, input: request });
    assert.deepEqual(parseRequestPrompt(`  ${JSON.stringify(request)}\n`), { ok: true, input: request });
  });

  it('explains an empty prompt and invalid JSON', () => {
    assert.deepEqual(parseRequestPrompt('   '), { ok: false });
    const invalid = parseRequestPrompt('{ "file_path": ');
    assert.equal(invalid.ok, false);
    assert.match(invalid.ok ? '' : invalid.jsonError ?? '', /JSON/);
  });

  it('reads back the response from a tool result\'s text, and nothing from other text', async () => {
    const response = await run('multi_edit', { file_path: FILE, edits: [{ old_string: 'zzz', new_string: 'y' }] }, { store: store() });
    assert.deepEqual(parseToolText(formatForModel(response)), response);
    assert.equal(parseToolText('no newline here'), undefined);
    assert.equal(parseToolText('summary\n{"success": "maybe"}'), undefined);
    assert.equal(parseToolText('summary\nnot json'), undefined);
  });
});
