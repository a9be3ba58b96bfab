/**
 * Typed reader over the `multiEdit.*` configuration. It has no vscode import, so
 * the parsing rules (defaults, clamping, enum fallbacks) are unit-tested in Node;
 * services.ts hands it `workspace.getConfiguration('multiEdit')`.
 */
import { SYNTAX_CHECK_POLICIES, type InsideIndentationPolicy, type InsideTokenPolicy, type Limits, type RetryPolicy, type SyntaxCheckPolicy } from '../../core/index';
import { VCS_PROTECTED_GLOBS } from '../../shared/pathPolicy';
import { CONFIG_SECTION } from './ids';

export const SAVE_AFTER_EDIT_VALUES = ['ifNotDirty', 'always', 'never'] as const;
export type SaveAfterEdit = (typeof SAVE_AFTER_EDIT_VALUES)[number];

/** Whether a document a request edited gets saved: `wasDirty` says it had unsaved work before the edit. */
export function shouldSaveAfterEdit(policy: SaveAfterEdit, wasDirty: boolean): boolean {
  switch (policy) {
    case 'always':
      return true;
    case 'never':
      return false;
    case 'ifNotDirty':
      return !wasDirty;
  }
}

export const CONFIRMATION_VALUES = ['outsideWorkspace', 'always', 'never'] as const;
export type ConfirmationPolicy = (typeof CONFIRMATION_VALUES)[number];

export const INSIDE_INDENTATION_VALUES: readonly InsideIndentationPolicy[] = ['warn', 'refuseMultiline', 'refuse'];
export const INSIDE_TOKEN_VALUES: readonly InsideTokenPolicy[] = ['warn', 'refuseSuspicious', 'refuse'];

export interface MultiEditSettings {
  readonly contextLines: number;
  readonly maxMatchLocations: number;
  readonly maxFileSizeMB: number;
  readonly maxEnvelopeKB: number;
  readonly saveAfterEdit: SaveAfterEdit;
  readonly protectedGlobs: readonly string[];
  readonly allowOutsideWorkspace: boolean;
  readonly confirmation: ConfirmationPolicy;
  readonly retryMaxAttempts: number;
  readonly retryMaxTotalMs: number;
  /** How many failed requests keep their problems. */
  readonly historyLimit: number;
  /** Whether "Retry with replace_all" asks before it changes the file. */
  readonly confirmReplaceAll: boolean;
  /** Whether "Apply anyway" asks before it writes a file its syntax check refused. */
  readonly confirmApplyAnyway: boolean;
  readonly insideIndentation: InsideIndentationPolicy;
  readonly insideToken: InsideTokenPolicy;
  /** What an edit that leaves a file with a new syntax error does. */
  readonly syntaxCheck: SyntaxCheckPolicy;
  /** Whether the status bar shows the last outcome and the open problems. */
  readonly showStatusBar: boolean;
  /** Whether applied requests are kept in the request history (MULTI_EDIT_NO_HISTORY turns it off as well). */
  readonly historyEnabled: boolean;
}

/** The configuration keys (relative to `multiEdit`), one per setting. */
export const SETTING_KEYS = {
  contextLines: 'contextLines',
  maxMatchLocations: 'maxMatchLocations',
  maxFileSizeMB: 'maxFileSizeMB',
  maxEnvelopeKB: 'maxEnvelopeKB',
  saveAfterEdit: 'saveAfterEdit',
  protectedGlobs: 'protectedGlobs',
  allowOutsideWorkspace: 'allowOutsideWorkspace',
  confirmation: 'confirmation',
  retryMaxAttempts: 'retry.maxAttempts',
  retryMaxTotalMs: 'retry.maxTotalMs',
  historyLimit: 'diagnostics.historyLimit',
  confirmReplaceAll: 'diagnostics.confirmReplaceAll',
  confirmApplyAnyway: 'diagnostics.confirmApplyAnyway',
  insideIndentation: 'insideIndentation',
  insideToken: 'insideToken',
  syntaxCheck: 'syntaxCheck',
  showStatusBar: 'statusBar.enabled',
  historyEnabled: 'history.enabled',
} as const satisfies Record<keyof MultiEditSettings, string>;

export const DEFAULT_PROTECTED_GLOBS = VCS_PROTECTED_GLOBS;

export const DEFAULT_SETTINGS: MultiEditSettings = {
  contextLines: 6,
  maxMatchLocations: 5,
  maxFileSizeMB: 32,
  maxEnvelopeKB: 32,
  saveAfterEdit: 'ifNotDirty',
  protectedGlobs: DEFAULT_PROTECTED_GLOBS,
  allowOutsideWorkspace: false,
  confirmation: 'outsideWorkspace',
  retryMaxAttempts: 5,
  retryMaxTotalMs: 10_000,
  historyLimit: 20,
  confirmReplaceAll: true,
  confirmApplyAnyway: true,
  insideIndentation: 'refuseMultiline',
  insideToken: 'refuseSuspicious',
  syntaxCheck: 'refuse',
  showStatusBar: true,
  historyEnabled: true,
};

type NumericSetting = 'contextLines' | 'maxMatchLocations' | 'maxFileSizeMB' | 'maxEnvelopeKB' | 'retryMaxAttempts' | 'retryMaxTotalMs' | 'historyLimit';

/** Inclusive bounds; package.json declares the same minimum/maximum (the drift test compares them). */
export const NUMERIC_BOUNDS: Readonly<Record<NumericSetting, { readonly min: number; readonly max: number; readonly integer: boolean }>> = {
  contextLines: { min: 0, max: 50, integer: true },
  maxMatchLocations: { min: 1, max: 100, integer: true },
  maxFileSizeMB: { min: 1, max: 1024, integer: false },
  maxEnvelopeKB: { min: 4, max: 1024, integer: true },
  retryMaxAttempts: { min: 1, max: 20, integer: true },
  retryMaxTotalMs: { min: 0, max: 120_000, integer: true },
  historyLimit: { min: 1, max: 500, integer: true },
};

/** What the reader needs from a configuration section (vscode.WorkspaceConfiguration fits). */
export interface ConfigSource {
  get(key: string): unknown;
}

function readNumber(source: ConfigSource, name: NumericSetting): number {
  const raw = source.get(SETTING_KEYS[name]);
  const { min, max, integer } = NUMERIC_BOUNDS[name];
  if (typeof raw !== 'number' || !Number.isFinite(raw)) {
    return DEFAULT_SETTINGS[name];
  }
  const value = integer ? Math.round(raw) : raw;
  return Math.min(max, Math.max(min, value));
}

function readEnum<T extends string>(source: ConfigSource, key: string, values: readonly T[], fallback: T): T {
  const raw = source.get(key);
  return values.find((value) => value === raw) ?? fallback;
}

function readBoolean(source: ConfigSource, key: string, fallback: boolean): boolean {
  const raw = source.get(key);
  return typeof raw === 'boolean' ? raw : fallback;
}

function readGlobs(source: ConfigSource): readonly string[] {
  const raw = source.get(SETTING_KEYS.protectedGlobs);
  if (!Array.isArray(raw)) {
    return DEFAULT_SETTINGS.protectedGlobs;
  }
  return raw.filter((glob): glob is string => typeof glob === 'string' && glob.trim() !== '');
}

/** Reads every setting; a value of the wrong type falls back to its default, numbers are clamped. */
export function readSettings(source: ConfigSource): MultiEditSettings {
  return {
    contextLines: readNumber(source, 'contextLines'),
    maxMatchLocations: readNumber(source, 'maxMatchLocations'),
    maxFileSizeMB: readNumber(source, 'maxFileSizeMB'),
    maxEnvelopeKB: readNumber(source, 'maxEnvelopeKB'),
    saveAfterEdit: readEnum(source, SETTING_KEYS.saveAfterEdit, SAVE_AFTER_EDIT_VALUES, DEFAULT_SETTINGS.saveAfterEdit),
    protectedGlobs: readGlobs(source),
    allowOutsideWorkspace: readBoolean(source, SETTING_KEYS.allowOutsideWorkspace, DEFAULT_SETTINGS.allowOutsideWorkspace),
    confirmation: readEnum(source, SETTING_KEYS.confirmation, CONFIRMATION_VALUES, DEFAULT_SETTINGS.confirmation),
    retryMaxAttempts: readNumber(source, 'retryMaxAttempts'),
    retryMaxTotalMs: readNumber(source, 'retryMaxTotalMs'),
    historyLimit: readNumber(source, 'historyLimit'),
    confirmReplaceAll: readBoolean(source, SETTING_KEYS.confirmReplaceAll, DEFAULT_SETTINGS.confirmReplaceAll),
    confirmApplyAnyway: readBoolean(source, SETTING_KEYS.confirmApplyAnyway, DEFAULT_SETTINGS.confirmApplyAnyway),
    insideIndentation: readEnum(source, SETTING_KEYS.insideIndentation, INSIDE_INDENTATION_VALUES, DEFAULT_SETTINGS.insideIndentation),
    insideToken: readEnum(source, SETTING_KEYS.insideToken, INSIDE_TOKEN_VALUES, DEFAULT_SETTINGS.insideToken),
    syntaxCheck: readEnum(source, SETTING_KEYS.syntaxCheck, SYNTAX_CHECK_POLICIES, DEFAULT_SETTINGS.syntaxCheck),
    showStatusBar: readBoolean(source, SETTING_KEYS.showStatusBar, DEFAULT_SETTINGS.showStatusBar),
    historyEnabled: readBoolean(source, SETTING_KEYS.historyEnabled, DEFAULT_SETTINGS.historyEnabled),
  };
}

/** The engine limits these settings control; the rest keep the engine's defaults. */
export function engineLimits(settings: MultiEditSettings): Partial<Limits> {
  return {
    contextLines: settings.contextLines,
    maxMatchLocations: settings.maxMatchLocations,
    maxFileBytes: Math.floor(settings.maxFileSizeMB * 1024 * 1024),
    maxEnvelopeBytes: settings.maxEnvelopeKB * 1024,
    insideIndentation: settings.insideIndentation,
    insideToken: settings.insideToken,
  };
}

export function retryPolicy(settings: MultiEditSettings): Partial<RetryPolicy> {
  return { maxAttempts: settings.retryMaxAttempts, maxTotalMs: settings.retryMaxTotalMs };
}

/** Reads the section afresh on every call, so a changed setting applies to the next request. */
export class SettingsReader {
  constructor(private readonly section: () => ConfigSource) {}

  current(): MultiEditSettings {
    return readSettings(this.section());
  }
}

/** Whether a configuration change touches one of these settings (`event.affectsConfiguration` of VS Code fits). */
export function affectsSetting(affects: (section: string) => boolean, setting: keyof MultiEditSettings): boolean {
  return affects(`${CONFIG_SECTION}.${SETTING_KEYS[setting]}`);
}
