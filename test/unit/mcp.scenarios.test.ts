/**
 * Every request scenario of the CLI suite, run through `multi-edit mcp` by the SDK
 * client: the same response JSON as `multi-edit apply` gives, and the same bytes on
 * disk, unless the scenario says why MCP answers differently by design.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseCliResponse, runScenarioThroughCli } from './helpers/cliRun';
import { recordFigure } from './helpers/figures';
import { startMcpSession, type McpSession } from './helpers/mcpSession';
import { mcpArguments, REQUEST_SCENARIOS, seedScenario } from './helpers/requestScenarios';
import { toolForRequest } from '../../src/core/formats/inputFormats';
import { useTempDir } from './helpers/tempDir';

/** Every file under `dir` with its bytes, so two runs can be compared byte for byte. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      files[path.relative(dir, full)] = fs.readFileSync(full).toString('base64');
    }
  }
  return files;
}

function emptyDirectory(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

describe('MCP server: every CLI request scenario gives the same response', function () {
  this.timeout(60_000);
  const root = useTempDir('mcp-scenarios', { per: 'suite' });
  const requestDir = useTempDir('mcp-request', { per: 'suite' });
  let session: McpSession;
  let same = 0;
  const differing: string[] = [];

  before(async () => {
    // The server's one root() is its working directory, where the CLI runs too: paths read alike.
    session = await startMcpSession({ cwd: root() });
  });

  after(async () => {
    await session.close();
    const byDesign = differing.length === 0 ? 'none differs' : `${differing.length} differ${differing.length === 1 ? 's' : ''} by design (${differing.join('; ')})`;
    recordFigure('MCP scenarios', `${same} CLI request scenarios gave the same response JSON and bytes through MCP; ${byDesign}`);
  });

  beforeEach(() => emptyDirectory(root()));

  for (const scenario of REQUEST_SCENARIOS) {
    it(scenario.name, async () => {
      const cli = runScenarioThroughCli(scenario, root(), requestDir());
      const cliResponse = parseCliResponse(cli.run);
      const cliFiles = snapshot(root());

      emptyDirectory(root());
      const files = seedScenario(root(), scenario);
      const args = mcpArguments(scenario, files.at);
      // The tool the CLI would pick for this request.
      const { response } = await session.call(toolForRequest(args), args);

      if (scenario.mcpDiffers) {
        scenario.mcpDiffers.mcpCheck(response, files);
        differing.push(`${scenario.name}: ${scenario.mcpDiffers.why}`);
        return;
      }
      // Each applied request gets an id of its own; everything else is the same.
      assert.deepEqual(withoutRequestId(response), withoutRequestId(cliResponse));
      assert.equal(typeof (response.success && !response.dry_run ? response.request_id : ''), 'string');
      assert.deepEqual(snapshot(root()), cliFiles);
      scenario.check(response, files);
      same++;
    });
  }
});

function withoutRequestId<Response extends object>(response: Response): Omit<Response, 'request_id'> {
  const rest = { ...response } as Record<string, unknown>;
  delete rest.request_id;
  return rest as Omit<Response, 'request_id'>;
}
