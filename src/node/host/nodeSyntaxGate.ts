/** The syntax gate as the CLI and the MCP server run it: the parsers of the grammars shipped in dist/. */
import type { SurfaceSyntaxGate, SyntaxCheckPolicy } from '../../core/index';
import { fileSyntaxChecker, type SyntaxCheckerOptions, treeSitterWasmDirectory } from '../../shared/syntax/fileSyntaxChecker';

/** `shortLived`: a process that parses once and exits (the CLI), not a server that parses on every call. */
export function nodeSyntaxGate(
  policy: SyntaxCheckPolicy,
  tell: (message: string) => void,
  { shortLived = false }: Pick<SyntaxCheckerOptions, 'shortLived'> = {},
): SurfaceSyntaxGate {
  if (policy === 'off') {
    return { policy };
  }
  const checker = fileSyntaxChecker({
    wasmDirectory: treeSitterWasmDirectory(),
    shortLived,
    onUnavailable: (grammar, reason) => tell(`the ${grammar} parser could not be loaded (${reason}); such files are written without a syntax check`),
  });
  return { policy, checker };
}
