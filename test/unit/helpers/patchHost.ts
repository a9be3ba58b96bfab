/** `multi-edit patch` in this process: the host the CLI builds for a patch under `root`, without its transport. */
import type { EngineResponse } from '../../../src/core/contract/schemas';
import { patchScope } from '../../../src/node/host/cliPaths';
import { NodeHost } from '../../../src/node/host/nodeHost';

export async function runPatchUnder(root: string, input: { readonly patch: string; readonly dry_run?: boolean }): Promise<EngineResponse> {
  const host = new NodeHost({ scope: await patchScope(root, []), syntaxCheck: 'off', log: () => undefined });
  return (await host.run('multi_edit_patch', input, { isCancellationRequested: false })).response;
}
