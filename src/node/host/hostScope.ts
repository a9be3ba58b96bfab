/**
 * Where a Node command may edit: what the engine checks each path against, and what the
 * store checks each target's real path against right before it writes. Every command
 * (apply, patch, mcp) has one, built by the host from its options, so none can run the
 * engine with a path check and no confinement behind it.
 */
import type { SurfaceScope } from '../../core/index';
import type { ScopeWording } from '../../shared/pathPolicy';
import type { ConfinementRule } from '../store/confinement';

export interface HostScope {
  /** The scope as the engine takes it for the next call (a server's roots can change between calls). */
  surface(): SurfaceScope;
  /** The rule the store applies to the real path of each target, by its held directory, right before it writes. */
  confinement(): ConfinementRule;
  /** A path as the path check resolves it (absolute, normalized), before any rule or link; undefined when it does not resolve. */
  resolvedPath(requested: string): string | undefined;
}

/** How a scope speaks, and the protected globs its user lifted. */
export interface ScopeRules {
  readonly wording: ScopeWording;
  /** --allow-protected: paths these globs match are editable even where a protected glob covers them. */
  readonly allowedGlobs: readonly string[];
  /** Paths outside the folders may be edited too (shown as absolute); protected files stay refused everywhere. */
  readonly outsideAllowed?: boolean;
}

/** The hint on FORBIDDEN_PATH, naming the option that lifts the protection. */
export function protectedGlobsHint(command: string): string {
  return `multi-edit ${command} refuses version-control folders (.git, .hg, .svn) and .env files; a user who means to edit one passes --allow-protected GLOB`;
}
