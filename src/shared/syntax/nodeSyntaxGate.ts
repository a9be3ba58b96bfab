/** The engine options that switch the syntax gate on for the CLI and the MCP server. */
import type { EngineOptions, SyntaxCheckPolicy } from '../../core/index';
import { fileSyntaxChecker, treeSitterWasmDirectory, type SyntaxCheckerOptions } from './fileSyntaxChecker';

export function nodeSyntaxGate(
  policy: SyntaxCheckPolicy,
  tell: (message: string) => void,
  { shortLived = false }: Pick<SyntaxCheckerOptions, 'shortLived'> = {},
): Pick<EngineOptions, 'syntaxChecker' | 'syntaxCheck'> {
  if (policy === 'off') {
    return { syntaxCheck: 'off' };
  }
  const checker = fileSyntaxChecker({
    wasmDirectory: treeSitterWasmDirectory(),
    shortLived,
    onUnavailable: (grammar, reason) => tell(`the ${grammar} parser could not be loaded (${reason}); such files are written without a syntax check`),
  });
  return { syntaxChecker: checker, syntaxCheck: policy };
}
