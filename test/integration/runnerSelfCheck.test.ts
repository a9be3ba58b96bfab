// Proves the runner reports a failing and a hanging test (scripts/vscode-test/self-check.sh).
// Without MULTI_EDIT_SELF_CHECK this suite holds no test.
import * as assert from 'node:assert/strict';

suite('runner self-check', () => {
  const mode = process.env.MULTI_EDIT_SELF_CHECK;
  if (mode === 'fail') {
    test('a failing test fails the run', () => {
      assert.fail('forced failure (MULTI_EDIT_SELF_CHECK=fail)');
    });
  }
  if (mode === 'hang') {
    test('a hanging test hits the runner timeout', function () {
      this.timeout(0);
      return new Promise<never>(() => undefined);
    });
  }
});
