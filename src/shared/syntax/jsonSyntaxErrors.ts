/** JSON errors with their positions, from the parser VS Code uses for JSON and JSON with comments. */
import { parse, type ParseError } from 'jsonc-parser';
import type { SyntaxErrorSpan } from '../../core/index';

export function jsonSyntaxErrors(text: string, comments: boolean): SyntaxErrorSpan[] {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: !comments, allowTrailingComma: comments, allowEmptyContent: true });
  return errors.map((error) => ({ start: error.offset, end: error.offset + error.length }));
}
