// A benchmark in the extension host, not a timed test: multi_edit through vscode.lm.invokeTool on a
// 1 MB open plain-text document (no language server at work), 50 edits a call, against a bare
// workspace.applyEdit of the same 50 replacements, and against VS Code's tool channel on its own
// (invokeTool of a one-edit dry run on a small file: the round trips every tool call pays, with next
// to no work in the extension). Each edit is timed until its text is read back from the document:
// the extension host joins a document's lines into its text once after each change, for whoever
// reads it first, and with a 1 MB document that reader (the built-in merge-conflict extension, a
// millisecond after the change) would otherwise land inside one side's time and not the other's.
// The figures (p50 and p95 of 30 calls each, and the ratios) go into
// the test's title and the host's console, and into the file that
// MULTI_EDIT_HOST_BENCH_FIGURES names when `npm run bench` runs this test; what is asserted is that
// every call did exactly what it says.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { HostBenchFigures } from '../../bench/editorRoundTrip';
import { TOOL_MULTI_EDIT } from '../../src/core/contract/toolNames';
import { closeAllEditors, expectSuccess, invokeTool, openInEditor, toolSuiteFixture, withSettings, writeScratchFile } from './helpers';

const TARGET_BYTES = 1024 * 1024;
const EDITS = 50;
const CALLS = 30;

interface Pair {
  readonly old_string: string;
  readonly new_string: string;
}

function sourceText(): { text: string; lines: string[] } {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < TARGET_BYTES; index++) {
    const line = `  const value${index} = compute(${index}, "item-${index}"); // line ${index}`;
    lines.push(line);
    size += line.length + 1;
  }
  return { text: `${lines.join('\n')}\n`, lines };
}

/** Whole lines spread through the document, each unique by its number; odd rounds undo even ones. */
function spreadEdits(lines: readonly string[]): { forward: Pair[]; back: Pair[] } {
  const forward = Array.from({ length: EDITS }, (_, index) => {
    const line = lines[Math.floor(((index + 0.5) * lines.length) / EDITS)];
    return { old_string: line, new_string: line.replace('compute(', 'recompute(') };
  });
  return { forward, back: forward.map((edit) => ({ old_string: edit.new_string, new_string: edit.old_string })) };
}

function percentile(samples: readonly number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

async function timed(body: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await body();
  return performance.now() - started;
}

suite('extension host benchmark: multi_edit on a 1 MB open document against a bare applyEdit', () => {
  const fixture = toolSuiteFixture('hostbench');
  teardown(closeAllEditors);

  test(`${CALLS} rounds of ${EDITS} edits: p50 and p95`, async function () {
    this.timeout(240_000);
    const { text, lines } = sourceText();
    const { forward, back } = spreadEdits(lines);
    const file = writeScratchFile(fixture.dir, 'big.txt', text);
    const { document } = await openInEditor(file);
    const small = writeScratchFile(fixture.dir, 'small.txt', 'const small = 1;\n');
    // Held open, so each dry run reads the document as the big file's calls do.
    await vscode.workspace.openTextDocument(small);
    const forwardText = forward.reduce((current, edit) => current.replace(edit.old_string, () => edit.new_string), text);
    const toolTimes: number[] = [];
    const bareTimes: number[] = [];
    const channelTimes: number[] = [];
    // Rounds take the three in turn, so a busy moment of the machine falls on each alike: the tool
    // applies the forward edits, a bare applyEdit takes them back, then the channel alone.
    // Saving would add a disk write that the bare applyEdit does not make.
    await withSettings({ saveAfterEdit: 'never' }, async () => {
      for (let round = 0; round <= CALLS; round++) {
        const toolMs = await timed(async () => {
          expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: file, edits: forward }));
          assert.equal(document.getText(), forwardText, `round ${round}: the tool call leaves the document as plain replacement would`);
        });
        const current = document.getText();
        const workspaceEdit = new vscode.WorkspaceEdit();
        for (const edit of back) {
          const start = current.indexOf(edit.old_string);
          assert.notEqual(start, -1, `round ${round}: "${edit.old_string.slice(0, 30)}" is in the document`);
          workspaceEdit.replace(document.uri, new vscode.Range(document.positionAt(start), document.positionAt(start + edit.old_string.length)), edit.new_string);
        }
        const bareMs = await timed(async () => {
          assert.equal(await vscode.workspace.applyEdit(workspaceEdit), true);
          assert.equal(document.getText(), text, `round ${round}: the bare edit takes the tool's edits back`);
        });
        const channelMs = await timed(async () => {
          expectSuccess(await invokeTool(TOOL_MULTI_EDIT, { file_path: small, edits: [{ old_string: 'small = 1', new_string: 'small = 2' }], dry_run: true }));
        });
        // The first round warms every path up.
        if (round > 0) {
          toolTimes.push(toolMs);
          bareTimes.push(bareMs);
          channelTimes.push(channelMs);
        }
      }
    });
    const figures: HostBenchFigures = {
      vscodeVersion: vscode.version, documentBytes: text.length, editsPerCall: EDITS, calls: CALLS,
      toolP50Ms: percentile(toolTimes, 0.5), toolP95Ms: percentile(toolTimes, 0.95),
      bareP50Ms: percentile(bareTimes, 0.5), bareP95Ms: percentile(bareTimes, 0.95),
      channelP50Ms: percentile(channelTimes, 0.5), channelP95Ms: percentile(channelTimes, 0.95),
    };
    const line = `invokeTool p50 ${figures.toolP50Ms.toFixed(1)} ms, p95 ${figures.toolP95Ms.toFixed(1)} ms; bare applyEdit p50 ${figures.bareP50Ms.toFixed(1)} ms, p95 ${figures.bareP95Ms.toFixed(1)} ms; p50 ratio ${(figures.toolP50Ms / figures.bareP50Ms).toFixed(2)}×; tool channel alone p50 ${figures.channelP50Ms.toFixed(1)} ms, p95 ${figures.channelP95Ms.toFixed(1)} ms`;
    console.log(`    extension-host bench: ${line}`);
    const figuresFile = process.env.MULTI_EDIT_HOST_BENCH_FIGURES;
    if (figuresFile) {
      writeFileSync(figuresFile, JSON.stringify(figures));
    }
    if (this.test) {
      this.test.title += ` (${line})`;
    }
  });
});
