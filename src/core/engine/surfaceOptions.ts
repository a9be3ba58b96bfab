/**
 * The engine's options as every surface assembles them (the extension's runner, and the
 * Node host behind the CLI and the MCP server): where the surface may edit, the store it
 * commits through, its policies, and where a bug is told. A surface says what it knows in
 * these terms; how they become EngineOptions is decided here, once.
 */
import type { Limits } from '../contract/limits';
import type { FileStore } from '../store/fileStore';
import type { PathCheck } from '../store/paths';
import type { SyntaxChecker, SyntaxCheckPolicy } from '../syntax/syntaxChecker';
import type { CancellationSignal, EngineOptions, RetryPolicy } from './options';

/** Where a surface may edit, and how it names what it edits. */
export interface SurfaceScope {
  /** Resolves each requested path and refuses what the surface does not allow. */
  readonly checkPath: PathCheck;
  /** The folders of the scope, first one first: a patch's relative paths name files in the first. */
  readonly folders: readonly string[];
  readonly displayPath: (absolutePath: string) => string;
}

/** The syntax gate as a surface runs it: its policy, and the parser (none: no file is checked). */
export interface SurfaceSyntaxGate {
  readonly policy: SyntaxCheckPolicy;
  readonly checker?: SyntaxChecker;
}

export interface SurfaceParts {
  readonly scope: SurfaceScope;
  readonly store: FileStore;
  readonly syntax: SurfaceSyntaxGate;
  readonly limits?: Partial<Limits>;
  readonly retry?: Partial<RetryPolicy>;
  readonly cancellation?: CancellationSignal;
  readonly onInternalError: (phase: string, error: unknown) => void;
}

export function surfaceOptions(parts: SurfaceParts): EngineOptions {
  const { scope, syntax } = parts;
  const root = scope.folders[0];
  return {
    store: parts.store,
    checkPath: scope.checkPath,
    ...(root !== undefined ? { root } : {}),
    displayPath: scope.displayPath,
    syntaxCheck: syntax.policy,
    ...(syntax.checker && syntax.policy !== 'off' ? { syntaxChecker: syntax.checker } : {}),
    ...(parts.limits ? { limits: parts.limits } : {}),
    ...(parts.retry ? { retry: parts.retry } : {}),
    ...(parts.cancellation ? { cancellation: parts.cancellation } : {}),
    onInternalError: parts.onInternalError,
  };
}
