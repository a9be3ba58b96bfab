/**
 * The zod schemas and the settings module are the sources of truth; package.json
 * and schemas/ are generated or hand-kept copies. These tests fail on any drift.
 */
import * as assert from 'node:assert/strict';
import { CONFIG_SECTION, TOOL_REFERENCE_NAMES } from '../../src/vscode/platform/ids';
import { TOOL_NAMES } from '../../src/core/contract/toolNames';
import { requestJsonSchemas } from '../../src/core/contract/schemas';
import { CONFIRMATION_VALUES, DEFAULT_SETTINGS, NUMERIC_BOUNDS, SAVE_AFTER_EDIT_VALUES, SETTING_KEYS } from '../../src/vscode/platform/settings';
import { readJsonFile, readLocalizedManifest } from './helpers/manifest';

const readJson = (relative: string): Record<string, unknown> => readJsonFile(relative) as Record<string, unknown>;

interface ToolContribution {
  name: string;
  toolReferenceName?: string;
  canBeReferencedInPrompt?: boolean;
  modelDescription?: string;
  userDescription?: string;
  icon?: string;
  inputSchema?: unknown;
}

interface ConfigurationProperty {
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  enumDescriptions?: unknown[];
  description?: string;
  type?: string;
}

const manifest = readLocalizedManifest<{
  activationEvents: string[];
  contributes: {
    languageModelTools: ToolContribution[];
    configuration: { properties: Record<string, ConfigurationProperty> };
  };
}>();

/** The tools' inputSchema is the zod JSON Schema without the "$schema" dialect key. */
function withoutDialect(schema: object): object {
  const inputSchema: Record<string, unknown> = { ...schema };
  delete inputSchema.$schema;
  return inputSchema;
}

const fix = 'run `npm run generate-schemas`';

/** What each tool's modelDescription must teach a model. */
const CONCEPTS: Record<string, readonly string[]> = {
  multi_edit: ['order', 'exactly once', 'replace_all', 'dry_run', 'absolute', 'error_code', 'edit_status', 'context.snippet', 'next_action'],
  multi_edit_files: ['order', 'exactly once', 'replace_all', 'dry_run', 'absolute', 'error_code', 'edit_status', 'context.snippet', 'next_action'],
  multi_edit_patch: ['*** Begin Patch', 'unified diff', '<<<<<<< SEARCH', 'relative', 'exact', 'FILE_EXISTS', 'dry_run', 'error_code', 'edit_status', 'context.patch_line', 'validation_issues', 'next_action'],
};

describe('schema drift: package.json and schemas/ against the zod schemas', () => {
  const generated = requestJsonSchemas();

  for (const name of TOOL_NAMES) {
    it(`${name}: package.json inputSchema equals the zod schema (${fix})`, () => {
      const tool = manifest.contributes.languageModelTools.find((candidate) => candidate.name === name);
      assert.ok(tool, `package.json contributes.languageModelTools has ${name}`);
      assert.deepEqual(tool.inputSchema, withoutDialect(generated[name]));
    });

    it(`${name}: contribution has its reference name, icon, descriptions and activation event`, () => {
      const tool = manifest.contributes.languageModelTools.find((candidate) => candidate.name === name);
      assert.ok(tool);
      assert.equal(tool.toolReferenceName, TOOL_REFERENCE_NAMES[name]);
      assert.equal(tool.canBeReferencedInPrompt, true);
      assert.match(tool.icon ?? '', /^\$\([a-z-]+\)$/);
      assert.ok((tool.userDescription ?? '').length > 20);
      for (const concept of CONCEPTS[name]) {
        assert.ok(tool.modelDescription?.includes(concept), `${name} modelDescription teaches "${concept}"`);
      }
      assert.ok(manifest.activationEvents.includes(`onLanguageModelTool:${name}`));
    });
  }

  it(`schemas/multiedit-request.schema.json accepts exactly the request shapes of the tools (${fix})`, () => {
    const file = readJson('schemas/multiedit-request.schema.json');
    assert.equal(file.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.deepEqual(file.oneOf, TOOL_NAMES.map((name) => withoutDialect(generated[name])));
  });

  it(`schemas/multiedit-request.editor.schema.json, for request files in VS Code, names the same fields with their descriptions and warns about nothing (${fix})`, () => {
    const editor = readJson('schemas/multiedit-request.editor.schema.json');
    const full = readJson('schemas/multiedit-request.schema.json');
    const fields = (schema: unknown, at = ''): string[] => {
      if (schema === null || typeof schema !== 'object') return [];
      const node = schema as Record<string, unknown>;
      const own = Object.entries((node.properties ?? {}) as Record<string, unknown>)
        .flatMap(([name, field]) => [`${at}${name}: ${String((field as { description?: string }).description)}`, ...fields(field, `${at}${name}.`)]);
      const nested = [node.items, ...((node.oneOf ?? node.anyOf ?? []) as unknown[])].flatMap((child) => fields(child, at));
      return [...own, ...nested];
    };
    assert.deepEqual(fields(editor), fields(full));
    const constraints = JSON.stringify(editor).match(/"(type|required|additionalProperties|oneOf|minItems|minLength|enum|const)":/g);
    assert.equal(constraints, null, 'a constraint would make VS Code warn about what Multi-Edit already marks');
  });

  it(`src/core/contract/requestSchemas.json, the engine's quick request check, equals the zod schemas (${fix})`, () => {
    assert.deepEqual(readJson('src/core/contract/requestSchemas.json'), generated);
  });
});

describe('settings drift: package.json contributes.configuration against src/vscode/settings.ts', () => {
  const properties = manifest.contributes.configuration.properties;
  const key = (name: keyof typeof SETTING_KEYS): string => `${CONFIG_SECTION}.${SETTING_KEYS[name]}`;

  for (const name of Object.keys(SETTING_KEYS) as (keyof typeof SETTING_KEYS)[]) {
    it(`${key(name)} is contributed with the reader's default and a description`, () => {
      const property = properties[key(name)];
      assert.ok(property, `${key(name)} is in package.json`);
      assert.deepEqual(property.default, DEFAULT_SETTINGS[name]);
      assert.ok((property.description ?? '').length > 20);
    });
  }

  for (const [name, bounds] of Object.entries(NUMERIC_BOUNDS) as [keyof typeof NUMERIC_BOUNDS, (typeof NUMERIC_BOUNDS)[keyof typeof NUMERIC_BOUNDS]][]) {
    it(`${key(name)} declares the reader's bounds and number type`, () => {
      const property = properties[key(name)];
      assert.equal(property.minimum, bounds.min);
      assert.equal(property.maximum, bounds.max);
      assert.equal(property.type, bounds.integer ? 'integer' : 'number');
    });
  }

  it('the enum settings list the reader\'s values, each with a description', () => {
    for (const [name, values] of [['saveAfterEdit', SAVE_AFTER_EDIT_VALUES], ['confirmation', CONFIRMATION_VALUES]] as const) {
      const property = properties[key(name)];
      assert.deepEqual(property.enum, [...values]);
      assert.equal(property.enumDescriptions?.length, values.length);
    }
  });

  it('contributes no multiEdit setting the reader does not know (besides the diagnostics group)', () => {
    const known = new Set(Object.keys(SETTING_KEYS).map((name) => key(name as keyof typeof SETTING_KEYS)));
    const unknown = Object.keys(properties).filter((name) => !known.has(name) && !name.startsWith(`${CONFIG_SECTION}.diagnostics.`));
    assert.deepEqual(unknown, []);
  });
});
