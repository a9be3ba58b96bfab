/** The manifest and the code agree: every command is an ID the code registers, every file it names exists. */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/vscode/platform/ids';

const ROOT = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

interface WalkthroughStep { id: string; description: string; media: { image?: string; markdown?: string } }

describe('extension manifest', () => {
  it('contributes exactly the commands of the IDs module, each titled under the Multi-Edit category', () => {
    const contributed = manifest.contributes.commands as { command: string; title: string; category: string }[];
    assert.deepEqual(contributed.map((command) => command.command).sort(), Object.values(COMMANDS).sort());
    for (const command of contributed) {
      assert.equal(command.category, 'Multi-Edit', command.command);
      assert.ok(command.title.length > 0, command.command);
    }
  });

  it('groups exactly the contributed tools into one tool set, by their reference names', () => {
    const referenceNames = (manifest.contributes.languageModelTools as { toolReferenceName: string }[]).map((tool) => tool.toolReferenceName);
    const [toolSet, ...others] = manifest.contributes.languageModelToolSets as { name: string; tools: string[] }[];
    assert.equal(others.length, 0);
    assert.match(toolSet.name, /^[\w-]+$/);
    assert.ok(!referenceNames.includes(toolSet.name), 'the set is not named like one of its tools');
    assert.deepEqual(toolSet.tools, referenceNames);
  });

  it('names an icon, walkthrough media and a request-file schema that exist', () => {
    const steps = manifest.contributes.walkthroughs.flatMap((walkthrough: { steps: WalkthroughStep[] }) => walkthrough.steps) as WalkthroughStep[];
    const files = [
      manifest.icon,
      ...steps.flatMap((step) => [step.media.image, step.media.markdown]).filter((file): file is string => file !== undefined),
      ...manifest.contributes.jsonValidation.map((validation: { url: string }) => validation.url),
    ];
    assert.ok(steps.length >= 3, 'the walkthrough has steps');
    for (const file of files) {
      assert.ok(existsSync(join(ROOT, file)), `${file} exists`);
    }
  });

  it('links walkthrough steps only to contributed commands or built-in ones', () => {
    const steps = manifest.contributes.walkthroughs[0].steps as WalkthroughStep[];
    const linked = steps.flatMap((step) => [...step.description.matchAll(/\(command:([\w.]+)/g)].map((match) => match[1]));
    assert.ok(linked.length > 0);
    const ours = linked.filter((command) => command.startsWith('multiEdit.'));
    for (const command of ours) {
      assert.ok((Object.values(COMMANDS) as string[]).includes(command), command);
    }
  });
});
