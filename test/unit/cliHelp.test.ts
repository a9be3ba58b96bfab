/**
 * The CLI's help is the sign a newcomer reads first: each command prints its own, each option is
 * marked by the commands that take it and taken by exactly those, the synopses in docs/ are the
 * ones --help prints, and the examples print what the help says they print.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from '../../src/node/cli/cliArgs';
import { CLI_OPTIONS, COMMAND_NAMES, optionsOf, type CommandName } from '../../src/node/cli/cliHelp';
import { REPO_ROOT, runCli } from './helpers/cliRun';
import { useTempDir } from './helpers/tempDir';

const help = (args: readonly string[]): string => {
  const run = runCli(args, { cwd: REPO_ROOT });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '');
  return run.stdout;
};

/** The text of a help's "Options" section, up to the next blank line. */
function optionsSection(text: string): string {
  const start = text.search(/^Options\b.*:$/m);
  assert.ok(start >= 0, 'the help has no Options section');
  return text.slice(start, text.indexOf('\n\n', start));
}

/** Every synopsis of `multi-edit <command>` in a text, joined across wrapped lines, whitespace collapsed, markdown unescaped. */
function synopsesIn(text: string): Array<{ command: CommandName; synopsis: string }> {
  const found: Array<{ command: CommandName; synopsis: string }> = [];
  const lines = text.split('\n').map((line) => line.replace(/\\\|/g, '|'));
  for (let index = 0; index < lines.length; index++) {
    const match = /(?:^\s*|`|usage: +)(multi-edit (apply|patch|mcp|undo|history) \[[^`]*)/.exec(lines[index]);
    if (!match) {
      continue;
    }
    // A shell comment after a synopsis in a code block is not part of it.
    let synopsis = match[1].replace(/\s+#\s.*$/, '');
    while (/^\s+\[|^\s+</.test(lines[index + 1] ?? '')) {
      synopsis += ` ${lines[++index].trim()}`;
    }
    found.push({ command: match[2] as CommandName, synopsis: synopsis.replace(/\s+/g, ' ').trim() });
  }
  return found;
}

const operandOf: Record<CommandName, readonly string[]> = { apply: ['request.json'], patch: ['fix.patch'], mcp: [], undo: [], history: [] };

/** A value the option accepts: its first choice, or a sample of its kind. */
function sampleValue(value: string): string {
  return value === 'MB' || value === 'N' || value === 'SECONDS' ? '1' : value === 'DIR' ? '/tmp' : value === 'NAME' ? 'latin1' : value.split('|')[0];
}

describe('CLI help', () => {
  it('multi-edit --help shows every synopsis and marks each option with the commands that take it', () => {
    const text = help(['--help']);
    for (const command of COMMAND_NAMES) {
      assert.ok(synopsesIn(text).some((found) => found.command === command), `--help has no synopsis of ${command}`);
    }
    const options = optionsSection(text);
    for (const option of CLI_OPTIONS) {
      const marked = new RegExp(`^  ${option.flag}\\b[^\\n]*\\n?\\s*\\(${option.commands.join(', ')}\\) `, 'm');
      assert.match(options, marked, `${option.flag} is not marked (${option.commands.join(', ')})`);
    }
  });

  for (const command of COMMAND_NAMES) {
    it(`multi-edit ${command} --help prints ${command}'s own help, with its options only`, () => {
      const text = help([command, '--help']);
      assert.equal(help([command, '-h']), text);
      assert.deepEqual(synopsesIn(text).map((found) => found.command), [command]);
      const options = optionsSection(text);
      const own = new Set(optionsOf(command).map((option) => option.flag));
      for (const flag of new Set(CLI_OPTIONS.map((option) => option.flag))) {
        assert.equal(new RegExp(`^  ${flag}\\b`, 'm').test(options), own.has(flag), `${command} --help ${own.has(flag) ? 'omits' : 'lists'} ${flag}`);
      }
    });
  }

  it('each option is taken by exactly the commands the help marks it with', () => {
    for (const flag of new Set(CLI_OPTIONS.map((option) => option.flag))) {
      const rows = CLI_OPTIONS.filter((option) => option.flag === flag);
      for (const command of COMMAND_NAMES) {
        const row = rows.find((option) => option.commands.includes(command)) ?? rows[0];
        const args = [command, flag, ...(row.value ? [sampleValue(row.value)] : []), ...operandOf[command]];
        const parsed = parseArgs(args);
        const taken = rows.some((option) => option.commands.includes(command));
        assert.equal(parsed.kind === command, taken, `${args.join(' ')}: ${parsed.kind === 'usage_error' ? parsed.message : parsed.kind}`);
      }
    }
  });

  it('every synopsis in the docs and the README is the one --help prints', () => {
    const helpSynopses = new Map(COMMAND_NAMES.map((command) => [command, synopsesIn(help([command, '--help']))[0].synopsis]));
    const pages: Record<string, readonly CommandName[]> = { 'docs/cli.md': COMMAND_NAMES, 'docs/mcp.md': ['mcp'], 'docs/patch.md': ['patch'], 'README.md': [] };
    for (const [page, required] of Object.entries(pages)) {
      const found = synopsesIn(fs.readFileSync(path.join(REPO_ROOT, page), 'utf8'));
      for (const command of required) {
        assert.ok(found.some((synopsis) => synopsis.command === command), `${page} shows no synopsis of ${command}`);
      }
      for (const { command, synopsis } of found) {
        assert.equal(synopsis, helpSynopses.get(command), `${page}'s synopsis of ${command} differs from multi-edit ${command} --help`);
      }
    }
  });

  describe('the examples print what the help says', () => {
    const workspace = useTempDir('help-example');
    beforeEach(() => {
      fs.cpSync(path.join(REPO_ROOT, 'demo', 'workspace'), workspace(), { recursive: true });
    });

    for (const command of ['apply', 'patch'] as const) {
      it(`multi-edit ${command} --help's example, run in the demo workspace`, () => {
        const example = help([command, '--help']).split(/^Example \(run in (\S+?)[;)].*$/m);
        assert.equal(example.length, 3, `${command} --help has no example`);
        const [, exampleRoot, body] = example;
        const steps = body.slice(0, body.search(/\n\n|$/)).split(/^ {2}\$ /m).slice(1);
        assert.ok(steps.some((step) => step.startsWith('multi-edit ')), 'the example runs nothing');
        for (const step of steps) {
          const [commandLine, ...expected] = step.split('\n').map((line) => line.replace(/^ {2}/, '').replaceAll(exampleRoot, workspace()));
          const shown = expected.filter((line) => line !== '');
          if (commandLine.startsWith('cat ')) {
            fs.writeFileSync(path.join(workspace(), commandLine.slice('cat '.length)), `${shown.join('\n')}\n`);
            continue;
          }
          const run = runCli(commandLine.split(' ').slice(1), { cwd: workspace() });
          const printed = shown.filter((line) => !line.startsWith('('));
          assert.deepEqual(run.stdout.split('\n').slice(0, printed.length), printed, `${commandLine} printed:\n${run.stdout}`);
        }
      });
    }
  });

  it('a usage error shows the usage of the command it was given to', () => {
    const run = runCli(['patch', '--inside-token', 'warn', 'fix.patch'], { cwd: REPO_ROOT });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /unknown option "--inside-token" for patch\nusage: multi-edit patch /);
    assert.match(run.stderr, /Run "multi-edit patch --help"/);
    assert.doesNotMatch(run.stderr, /multi-edit apply/);
  });

  it('--help after "--" is an operand, not a request for help', () => {
    const parsed = parseArgs(['apply', '--', '--help']);
    assert.equal(parsed.kind === 'apply' && parsed.source, '--help');
  });
});
