/** The syntax gate as the CLI and the MCP server run it: the parsers of the grammars shipped in dist/. */
import type { SurfaceSyntaxGate, SyntaxCheckPolicy } from '../../core/index';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../shared/syntax/fileSyntaxChecker';

export function nodeSyntaxGate(policy: SyntaxCheckPolicy, tell: (message: string) => void): SurfaceSyntaxGate {
  if (policy === 'off') {
    return { policy };
  }
  const checker = fileSyntaxChecker({
    wasmDirectory: treeSitterWasmDirectory(),
    onUnavailable: (grammar, reason) => tell(`the ${grammar} parser could not be loaded (${reason}); such files are written without a syntax check`),
  });
  return { policy, checker };
}
