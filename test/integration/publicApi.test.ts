import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { apiForMode } from '../../src/vscode/extension';
import { activateExtension } from './helpers';

suite('public API: activate() gives another extension nothing to misuse', () => {
  test('outside the test harness the exports are undefined: no runner to drive, no commit to hook', async () => {
    const api = await activateExtension();
    for (const mode of [vscode.ExtensionMode.Production, vscode.ExtensionMode.Development]) {
      assert.equal(apiForMode(mode, api, api.logDirectory), undefined, `mode ${vscode.ExtensionMode[mode]}`);
    }
    // Without the harness there is no hook object either: the runner's stores never call one.
    const servicesWithoutHooks = { ...api, storeHooks: undefined };
    assert.equal(apiForMode(vscode.ExtensionMode.Test, servicesWithoutHooks, api.logDirectory), undefined);
  });

  test('under the test harness the services and the commit hook are there, and nothing else is', async () => {
    const api = await activateExtension();
    assert.equal(typeof api.runner.run, 'function');
    assert.deepEqual(Object.keys(api).sort(), ['bus', 'lastEdit', 'log', 'logDirectory', 'readHooks', 'runner', 'settings', 'storeHooks']);
  });
});
