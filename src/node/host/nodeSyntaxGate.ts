/** The engine options that switch the syntax gate on for the CLI and the MCP server. */
import type { EngineOptions, SyntaxCheckPolicy } from '../../core/index';
import { fileSyntaxChecker, treeSitterWasmDirectory } from '../../shared/syntax/fileSyntaxChecker';

export function nodeSyntaxGate(policy: SyntaxCheckPolicy, tell: (message: string) => void): Pick<EngineOptions, 'syntaxChecker' | 'syntaxCheck'> {
  if (policy === 'off') {
    return { syntaxCheck: 'off' };
  }
  const checker = fileSyntaxChecker({
    wasmDirectory: treeSitterWasmDirectory(),
    onUnavailable: (grammar, reason) => tell(`the ${grammar} parser could not be loaded (${reason}); such files are written without a syntax check`),
  });
  return { syntaxChecker: checker, syntaxCheck: policy };
}
