/**
 * The JSON gate's parser without recursion: the same errors as jsonc-parser's own parse
 * on random token soups (JSON and JSON with comments), and a valid file nested 200,000
 * levels deep checked and edited without exhausting the stack.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { parse, type ParseError } from 'jsonc-parser';
import { jsonSyntaxErrors } from '../../src/shared/syntax/jsonSyntaxErrors';
import { parseCliResponse, runCli } from './helpers/cliRun';

const DEPTH = 200_000;

function jsoncErrors(text: string, comments: boolean): { start: number; end: number }[] {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: !comments, allowTrailingComma: comments, allowEmptyContent: true });
  return errors.map((error) => ({ start: error.offset, end: error.offset + error.length }));
}

const token = fc.constantFrom('{', '}', '[', ']', ',', ':', '"a"', '"k"', '1', '-', '1e', '0x1', 'true', 'nul', 'null', '/* c */', '// c\n', '/*', '"open', '"\\q"', '"\\u12"', ' ', '\n', '@', '\u0001');

describe('JSON syntax errors without recursion', () => {
  it('finds the errors jsonc-parser finds, at the same places, in JSON and in JSON with comments', () => {
    let withErrors = 0;
    fc.assert(fc.property(fc.array(token, { maxLength: 30 }), fc.boolean(), (tokens, comments) => {
      const text = tokens.join('');
      const expected = jsoncErrors(text, comments);
      assert.deepEqual(jsonSyntaxErrors(text, comments), expected, JSON.stringify(text));
      withErrors += expected.length > 0 ? 1 : 0;
    }), { numRuns: 20_000 });
    assert.ok(withErrors > 5_000, `only ${withErrors} texts had errors`);
  });

  it('finds no error in valid JSON nested 200,000 levels deep, and the errors of a broken one', () => {
    const arrays = `${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}`;
    const objects = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
    assert.deepEqual(jsonSyntaxErrors(arrays, false), []);
    assert.deepEqual(jsonSyntaxErrors(objects, true), []);
    const broken = `${'['.repeat(DEPTH)}1,${']'.repeat(DEPTH - 1)}`;
    const errors = jsonSyntaxErrors(broken, false);
    assert.deepEqual(errors[0], { start: DEPTH + 2, end: DEPTH + 3 }, 'a value is missing after the comma');
    assert.deepEqual(errors[errors.length - 1], { start: broken.length, end: broken.length }, 'the outermost bracket is not closed');
  });

  it('lets a valid edit of a .json file nested 200,000 levels deep through the gate (the CLI, gate on)', function () {
    this.timeout(120_000);
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-deep-json-')));
    try {
      const file = path.join(dir, 'deep.json');
      fs.writeFileSync(file, `${'['.repeat(DEPTH)}"old"${']'.repeat(DEPTH)}\n`);
      const request = path.join(dir, 'request.json');
      fs.writeFileSync(request, JSON.stringify({ file_path: file, edits: [{ old_string: '"old"', new_string: '"new"' }] }));
      const run = runCli(['apply', '--syntax-check', 'refuse', request], { cwd: dir });
      const response = parseCliResponse(run);
      assert.equal(response.success, true, run.stdout);
      assert.equal(fs.readFileSync(file, 'utf8'), `${'['.repeat(DEPTH)}"new"${']'.repeat(DEPTH)}\n`);
      // An edit that breaks it is still refused, with the error found.
      fs.writeFileSync(request, JSON.stringify({ file_path: file, edits: [{ old_string: '"new"', new_string: '"new",' }] }));
      const refused = parseCliResponse(runCli(['apply', request], { cwd: dir }));
      assert.equal(refused.success ? 'applied' : refused.error_code, 'SYNTAX_REGRESSION');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
