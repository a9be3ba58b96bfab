/** Parses the CLI's arguments into one command, or a usage error (exit 2). */

import { SYNTAX_CHECK_POLICIES, type InsideIndentationPolicy, type InsideTokenPolicy, type SyntaxCheckPolicy } from '../../core/index';
import { COMMAND_NAMES, type CommandName } from './cliHelp';

export type OutputFormat = 'json' | 'text';

/** The request operand that means "read the request from standard input". */
export const STDIN_OPERAND = '-';

export interface ApplyCommand {
  readonly kind: 'apply';
  readonly dryRun: boolean;
  readonly format: OutputFormat;
  /** Files larger than this are FILE_TOO_LARGE; undefined keeps the engine's default. */
  readonly maxFileBytes?: number;
  /** A request file path, or STDIN_OPERAND. */
  readonly source: string;
  /** --inside-indentation: what to do with a match that starts inside a line's indentation. */
  readonly insideIndentation?: InsideIndentationPolicy;
  /** --inside-token: what to do with a match that starts or ends inside a word or a number. */
  readonly insideToken?: InsideTokenPolicy;
  /** --syntax-check: what an edit that breaks the file's parse does (default refuse). */
  readonly syntaxCheck: SyntaxCheckPolicy;
  /** --allow-protected: globs of protected paths the user means to edit. */
  readonly allowProtected: readonly string[];
  /** --max-time: how long planning may take before the run is CANCELLED, in milliseconds. */
  readonly timeLimitMs?: number;
  /** --encoding: a file's encoding when it has no BOM, is not UTF-8 and its request names none. */
  readonly encoding?: string;
  /** --no-history: keep no record of the request. */
  readonly noHistory: boolean;
}

/** `multi-edit patch`: apply a patch file (Codex apply_patch, unified diff, or SEARCH/REPLACE blocks) under a root. */
export interface PatchCommand {
  readonly kind: 'patch';
  readonly dryRun: boolean;
  /** --full-diff: a dry run shows every line of a deleted file. */
  readonly fullDiff: boolean;
  readonly format: OutputFormat;
  /** --root as given; default the working directory. */
  readonly root?: string;
  /** A patch file path, or STDIN_OPERAND. */
  readonly source: string;
  readonly syntaxCheck: SyntaxCheckPolicy;
  readonly allowProtected: readonly string[];
  readonly timeLimitMs?: number;
  readonly encoding?: string;
  readonly noHistory: boolean;
}

/** `multi-edit mcp`: serve the tools over MCP on stdio until stdin closes. */
export interface McpCommand {
  readonly kind: 'mcp';
  /** The --root directories, as given (resolved by the server). */
  readonly roots: readonly string[];
  readonly insideToken?: InsideTokenPolicy;
  readonly syntaxCheck: SyntaxCheckPolicy;
  readonly allowProtected: readonly string[];
  /** --max-time: each call's planning limit, in milliseconds. */
  readonly timeLimitMs?: number;
  readonly encoding?: string;
  readonly noHistory: boolean;
  /** --max-file-size: every tool's size limit in bytes (undo's too); undefined keeps the default. */
  readonly maxFileBytes?: number;
}

/** `multi-edit undo`: take back a request of a root's history. */
export interface UndoCommand {
  readonly kind: 'undo';
  readonly dryRun: boolean;
  readonly format: OutputFormat;
  /** --root as given; default the working directory. */
  readonly root?: string;
  /** The request to undo; default the latest not yet undone. */
  readonly requestId?: string;
  /** --max-file-size: files larger than this (and than the request left them) are FILE_TOO_LARGE; undefined keeps the default. */
  readonly maxFileBytes?: number;
}

/** `multi-edit history`: list a root's recent requests. */
export interface HistoryCommand {
  readonly kind: 'history';
  readonly format: OutputFormat;
  readonly root?: string;
  readonly limit: number;
}

export type CliCommand =
  | ApplyCommand
  | PatchCommand
  | McpCommand
  | UndoCommand
  | HistoryCommand
  /** --help: the global help, or the help of the command it follows. */
  | { readonly kind: 'help'; readonly command?: CommandName }
  | { readonly kind: 'version' }
  /** A usage error, with the command it was given to (its usage is shown), if any. */
  | { readonly kind: 'usage_error'; readonly message: string; readonly command?: CommandName };

const FORMATS: readonly OutputFormat[] = ['json', 'text'];
const INDENTATION_POLICIES: readonly InsideIndentationPolicy[] = ['warn', 'refuseMultiline', 'refuse'];
const TOKEN_POLICIES: readonly InsideTokenPolicy[] = ['warn', 'refuseSuspicious', 'refuse'];

/**
 * `--name V` or `--name=V` at args[index]: its value (undefined when missing) and the
 * index of its last argument; undefined when args[index] is not that option.
 */
function optionAt(args: readonly string[], index: number, name: string): { value: string | undefined; last: number } | undefined {
  const arg = args[index];
  if (arg === name) {
    return { value: args[index + 1], last: index + 1 };
  }
  return arg.startsWith(`${name}=`) ? { value: arg.slice(name.length + 1), last: index } : undefined;
}

/** A policy option's value checked against its choices, or the usage error that names them. */
function policyValue<P extends string>(name: string, value: string | undefined, choices: readonly P[]): P | CliCommand {
  return choices.includes(value as P) ? (value as P) : usageError(`${name} needs one of ${choices.join(', ')}`);
}

const usageError = (message: string): CliCommand => ({ kind: 'usage_error', message });

/** The policies of the edits a command runs, as its options set them. */
interface EditPolicies {
  syntaxCheck: SyntaxCheckPolicy;
  insideToken?: InsideTokenPolicy;
  /** --max-time: how long planning may take, in milliseconds. */
  timeLimitMs?: number;
  /** --encoding: what a file without a BOM that is not UTF-8 is read in, unless its request names one. */
  encoding?: string;
}

type PolicyOption = '--inside-token' | '--syntax-check' | '--max-time' | '--encoding';

/**
 * Reads the policy option at args[index], if it is one the command accepts, into `policies`:
 * the index of its last argument, a usage error, or undefined when args[index] is no such option.
 */
function readPolicyOption(args: readonly string[], index: number, policies: EditPolicies, accepted: readonly PolicyOption[]): number | CliCommand | undefined {
  const token = accepted.includes('--inside-token') ? optionAt(args, index, '--inside-token') : undefined;
  if (token) {
    const policy = policyValue('--inside-token', token.value, TOKEN_POLICIES);
    if (typeof policy !== 'string') {
      return policy;
    }
    policies.insideToken = policy;
    return token.last;
  }
  const encoding = accepted.includes('--encoding') ? optionAt(args, index, '--encoding') : undefined;
  if (encoding) {
    if (encoding.value === undefined || encoding.value.trim() === '') {
      return usageError('--encoding needs the name of an encoding, such as windows-1252 or shift_jis');
    }
    policies.encoding = encoding.value.trim();
    return encoding.last;
  }
  const syntax = accepted.includes('--syntax-check') ? optionAt(args, index, '--syntax-check') : undefined;
  if (syntax) {
    const policy = policyValue('--syntax-check', syntax.value, SYNTAX_CHECK_POLICIES);
    if (typeof policy !== 'string') {
      return policy;
    }
    policies.syntaxCheck = policy;
    return syntax.last;
  }
  const time = accepted.includes('--max-time') ? optionAt(args, index, '--max-time') : undefined;
  if (time) {
    const seconds = Number(time.value);
    if (time.value === undefined || time.value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) {
      return usageError('--max-time needs a positive number of seconds');
    }
    policies.timeLimitMs = Math.ceil(seconds * 1000);
    return time.last;
  }
  return undefined;
}

/**
 * --max-file-size MB at args[index]: the limit in bytes and the index of its last argument, a
 * usage error, or undefined when args[index] is not that option. Fractions of a megabyte are allowed.
 */
function readMaxFileSize(args: readonly string[], index: number): { bytes: number; last: number } | CliCommand | undefined {
  const option = optionAt(args, index, '--max-file-size');
  if (!option) {
    return undefined;
  }
  const megabytes = Number(option.value);
  if (option.value === undefined || option.value.trim() === '' || !Number.isFinite(megabytes) || megabytes <= 0) {
    return usageError('--max-file-size needs a positive number of megabytes');
  }
  return { bytes: Math.floor(megabytes * 1024 * 1024), last: option.last };
}

/**
 * --allow-protected GLOB at args[index], added to `globs` (the option repeats): the index of
 * its last argument, a usage error, or undefined when args[index] is not that option.
 */
function readAllowProtected(args: readonly string[], index: number, globs: string[]): number | CliCommand | undefined {
  const option = optionAt(args, index, '--allow-protected');
  if (!option) {
    return undefined;
  }
  if (option.value === undefined || option.value === '') {
    return usageError('--allow-protected needs a glob, e.g. "**/.env"');
  }
  globs.push(option.value);
  return option.last;
}

const ALL_POLICIES: readonly PolicyOption[] = ['--inside-token', '--syntax-check', '--max-time', '--encoding'];

/** The policies as fields of a command: insideToken, timeLimitMs and encoding only when an option set them. */
const policyFields = ({ syntaxCheck, insideToken, timeLimitMs, encoding }: EditPolicies) => ({
  syntaxCheck, ...(insideToken ? { insideToken } : {}), ...(timeLimitMs !== undefined ? { timeLimitMs } : {}), ...(encoding !== undefined ? { encoding } : {}),
});

const PARSERS: Readonly<Record<CommandName, (args: readonly string[]) => CliCommand>> = {
  apply: (args) => parseApply(args),
  patch: (args) => parsePatch(args),
  mcp: (args) => parseMcp(args),
  undo: (args) => parseUndo(args),
  history: (args) => parseHistory(args),
};

const isCommandName = (name: string | undefined): name is CommandName => COMMAND_NAMES.includes(name as CommandName);

export function parseArgs(args: readonly string[]): CliCommand {
  const [command, ...rest] = args;
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  if (options.includes('--help') || options.includes('-h')) {
    return isCommandName(command) ? { kind: 'help', command } : { kind: 'help' };
  }
  if (args.length === 1 && args[0] === '--version') {
    return { kind: 'version' };
  }
  if (command === undefined) {
    return usageError('no command given');
  }
  if (!isCommandName(command)) {
    return usageError(`unknown command "${command}"; the commands are ${COMMAND_NAMES.map((name) => `"${name}"`).join(', ')}`);
  }
  const parsed = PARSERS[command](rest);
  return parsed.kind === 'usage_error' ? { ...parsed, command } : parsed;
}

function parseMcp(args: readonly string[]): CliCommand {
  const roots: string[] = [];
  const allowProtected: string[] = [];
  let noHistory = false;
  let maxFileBytes: number | undefined;
  const policies: EditPolicies = { syntaxCheck: 'refuse' };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    const policy = readPolicyOption(args, index, policies, ALL_POLICIES) ?? readAllowProtected(args, index, allowProtected);
    const sizeOption = readMaxFileSize(args, index);
    if (typeof policy === 'object') {
      return policy;
    }
    if (sizeOption && 'kind' in sizeOption) {
      return sizeOption;
    }
    if (policy !== undefined) {
      index = policy;
    } else if (sizeOption) {
      maxFileBytes = sizeOption.bytes;
      index = sizeOption.last;
    } else if (arg === '--no-history') {
      noHistory = true;
    } else if (arg === '--root' || arg.startsWith('--root=')) {
      const value = arg === '--root' ? args[++index] : arg.slice('--root='.length);
      if (value === undefined || value === '') {
        return usageError('--root needs a directory');
      }
      roots.push(value);
    } else {
      return usageError(arg.startsWith('-') ? `unknown option "${arg}" for mcp` : `mcp takes no operand, but "${arg}" was given; pass directories with --root`);
    }
  }
  return { kind: 'mcp', roots, allowProtected, noHistory, ...policyFields(policies), ...(maxFileBytes !== undefined ? { maxFileBytes } : {}) };
}

function parseApply(args: readonly string[]): CliCommand {
  let dryRun = false;
  let format: OutputFormat = 'json';
  let insideIndentation: InsideIndentationPolicy | undefined;
  let maxFileBytes: number | undefined;
  let noHistory = false;
  const allowProtected: string[] = [];
  const policies: EditPolicies = { syntaxCheck: 'refuse' };
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === '--') {
      operands.push(...args.slice(index + 1));
      break;
    }
    const policy = readPolicyOption(args, index, policies, ALL_POLICIES) ?? readAllowProtected(args, index, allowProtected);
    const formatOption = readFormatOption(args, index);
    const sizeOption = readMaxFileSize(args, index);
    if (typeof policy === 'object') {
      return policy;
    }
    if (formatOption && 'kind' in formatOption) {
      return formatOption;
    }
    if (sizeOption && 'kind' in sizeOption) {
      return sizeOption;
    }
    if (policy !== undefined) {
      index = policy;
    } else if (arg === '--dry-run') {
      dryRun = true;
    } else if (arg === '--no-history') {
      noHistory = true;
    } else if (formatOption) {
      format = formatOption.format;
      index = formatOption.last;
    } else if (arg === '--inside-indentation' || arg.startsWith('--inside-indentation=')) {
      const value = arg === '--inside-indentation' ? args[++index] : arg.slice('--inside-indentation='.length);
      if (!INDENTATION_POLICIES.includes(value as InsideIndentationPolicy)) {
        return usageError(`--inside-indentation needs one of ${INDENTATION_POLICIES.join(', ')}`);
      }
      insideIndentation = value as InsideIndentationPolicy;
    } else if (sizeOption) {
      maxFileBytes = sizeOption.bytes;
      index = sizeOption.last;
    } else if (arg.startsWith('-') && arg !== STDIN_OPERAND) {
      return usageError(`unknown option "${arg}"`);
    } else {
      operands.push(arg);
    }
  }
  if (operands.length === 0) {
    return usageError(`apply needs a request file, or "${STDIN_OPERAND}" to read the request from standard input`);
  }
  if (operands.length > 1) {
    return usageError(`apply takes one request, but ${operands.length} were given; put several files in one multi_edit_files request`);
  }
  return { kind: 'apply', dryRun, format, source: operands[0], allowProtected, noHistory, ...policyFields(policies), ...(insideIndentation ? { insideIndentation } : {}), ...(maxFileBytes !== undefined ? { maxFileBytes } : {}) };
}

/** The --format option at args[index]: the format and the index of its last argument, a usage error, or undefined when it is not there. */
function readFormatOption(args: readonly string[], index: number): { format: OutputFormat; last: number } | CliCommand | undefined {
  const option = optionAt(args, index, '--format');
  if (!option) {
    return undefined;
  }
  if (option.value === undefined) {
    return usageError('--format needs a value: json or text');
  }
  return FORMATS.includes(option.value as OutputFormat)
    ? { format: option.value as OutputFormat, last: option.last }
    : usageError(`unknown format "${option.value}"; use json or text`);
}

function parsePatch(args: readonly string[]): CliCommand {
  let dryRun = false;
  let fullDiff = false;
  let format: OutputFormat = 'json';
  let root: string | undefined;
  let noHistory = false;
  const allowProtected: string[] = [];
  const policies: EditPolicies = { syntaxCheck: 'refuse' };
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    const policy = readPolicyOption(args, index, policies, ['--syntax-check', '--max-time', '--encoding']) ?? readAllowProtected(args, index, allowProtected);
    if (typeof policy === 'object') {
      return policy;
    }
    if (policy !== undefined) {
      index = policy;
      continue;
    }
    if (arg === '--') {
      operands.push(...args.slice(index + 1));
      break;
    }
    const formatOption = readFormatOption(args, index);
    if (formatOption && 'kind' in formatOption) {
      return formatOption;
    }
    if (arg === '--dry-run') {
      dryRun = true;
    } else if (arg === '--full-diff') {
      fullDiff = true;
    } else if (arg === '--no-history') {
      noHistory = true;
    } else if (formatOption) {
      format = formatOption.format;
      index = formatOption.last;
    } else if (arg === '--root' || arg.startsWith('--root=')) {
      const value = arg === '--root' ? args[++index] : arg.slice('--root='.length);
      if (value === undefined || value === '' || root !== undefined) {
        return usageError(root === undefined ? '--root needs a directory' : 'patch takes one --root');
      }
      root = value;
    } else if (arg.startsWith('-') && arg !== STDIN_OPERAND) {
      return usageError(`unknown option "${arg}" for patch`);
    } else {
      operands.push(arg);
    }
  }
  if (operands.length !== 1) {
    return usageError(operands.length === 0
      ? `patch needs a patch file, or "${STDIN_OPERAND}" to read the patch from standard input`
      : `patch takes one patch file, but ${operands.length} were given; one patch can change many files`);
  }
  return { kind: 'patch', dryRun, fullDiff, format, source: operands[0], allowProtected, noHistory, ...policyFields(policies), ...(root !== undefined ? { root } : {}) };
}

/** The options undo and history share: --format and --root; the rest go to `other`. */
function readHistoryOptions(
  args: readonly string[], command: 'undo' | 'history', other: (arg: string, index: number) => number | CliCommand | undefined,
): { format: OutputFormat; root?: string; operands: string[] } | CliCommand {
  let format: OutputFormat = 'json';
  let root: string | undefined;
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    const formatOption = readFormatOption(args, index);
    if (formatOption && 'kind' in formatOption) {
      return formatOption;
    }
    const handled = formatOption ? undefined : other(arg, index);
    if (typeof handled === 'object') {
      return handled;
    }
    if (formatOption) {
      format = formatOption.format;
      index = formatOption.last;
    } else if (handled !== undefined) {
      index = handled;
    } else if (arg === '--root' || arg.startsWith('--root=')) {
      const value = arg === '--root' ? args[++index] : arg.slice('--root='.length);
      if (value === undefined || value === '' || root !== undefined) {
        return usageError(root === undefined ? '--root needs a directory' : `${command} takes one --root`);
      }
      root = value;
    } else if (arg.startsWith('-')) {
      return usageError(`unknown option "${arg}" for ${command}`);
    } else {
      operands.push(arg);
    }
  }
  return { format, operands, ...(root !== undefined ? { root } : {}) };
}

function parseUndo(args: readonly string[]): CliCommand {
  let dryRun = false;
  let maxFileBytes: number | undefined;
  const read = readHistoryOptions(args, 'undo', (arg, index) => {
    const sizeOption = readMaxFileSize(args, index);
    if (sizeOption) {
      if ('kind' in sizeOption) {
        return sizeOption;
      }
      maxFileBytes = sizeOption.bytes;
      return sizeOption.last;
    }
    if (arg !== '--dry-run') {
      return undefined;
    }
    dryRun = true;
    return index;
  });
  if ('kind' in read) {
    return read;
  }
  const { format, root, operands } = read;
  if (operands.length > 1) {
    return usageError(`undo takes at most one request id, but ${operands.length} were given; undo them one at a time, newest first`);
  }
  return {
    kind: 'undo', dryRun, format,
    ...(root !== undefined ? { root } : {}), ...(operands[0] !== undefined ? { requestId: operands[0] } : {}), ...(maxFileBytes !== undefined ? { maxFileBytes } : {}),
  };
}

const DEFAULT_HISTORY_LIMIT = 20;

function parseHistory(args: readonly string[]): CliCommand {
  let limit = DEFAULT_HISTORY_LIMIT;
  const read = readHistoryOptions(args, 'history', (_arg, index) => {
    const option = optionAt(args, index, '--limit');
    if (!option) {
      return undefined;
    }
    const value = Number(option.value);
    if (!Number.isSafeInteger(value) || value < 1) {
      return usageError('--limit needs a whole number of requests, 1 or more');
    }
    limit = value;
    return option.last;
  });
  if ('kind' in read) {
    return read;
  }
  if (read.operands.length > 0) {
    return usageError(`history takes no operand, but "${read.operands[0]}" was given`);
  }
  return { kind: 'history', format: read.format, limit, ...(read.root !== undefined ? { root: read.root } : {}) };
}
