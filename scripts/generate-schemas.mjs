// Generates the request JSON Schemas from the zod schemas (src/core/contract/schemas.ts),
// the single source of truth:
//  - package.json contributes.languageModelTools[].inputSchema, one per tool;
//  - schemas/multiedit-request.schema.json, either request shape, for tools that validate request files;
//  - schemas/multiedit-request.editor.schema.json, the same fields with their descriptions and no
//    constraints, which VS Code uses for completion and hovers in request files: Multi-Edit marks
//    what is wrong itself, once, so the JSON schema's warnings would only repeat it;
//  - src/core/contract/requestSchemas.json, the JSON Schema of each tool's request, with which
//    the engine accepts a valid request without loading zod (src/core/request/requestShape.ts).
// test/unit/schemaDrift.test.ts fails when these differ from what the zod schemas give.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageFile = join(root, 'package.json');
const requestSchemaFile = join(root, 'schemas', 'multiedit-request.schema.json');
const editorSchemaFile = join(root, 'schemas', 'multiedit-request.editor.schema.json');
const coreSchemasFile = join(root, 'src', 'core', 'contract', 'requestSchemas.json');

/** Bundles schemas.ts in memory and imports it, so no compiled output has to exist. */
async function loadRequestJsonSchemas() {
  const bundle = await esbuild.build({
    entryPoints: [join(root, 'src', 'core', 'contract', 'schemas.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  const source = Buffer.from(bundle.outputFiles[0].text).toString('base64');
  const module = await import(`data:text/javascript;base64,${source}`);
  return module.requestJsonSchemas();
}

/** A tool's inputSchema: the zod JSON Schema without its "$schema" key, which model APIs do not expect. */
function toolInputSchema(schema) {
  const inputSchema = { ...schema };
  delete inputSchema.$schema;
  return inputSchema;
}

function requestFileSchema(schemas) {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Multi-Edit request',
    description: 'A multi_edit request (file_path and edits), a multi_edit_files request (files) or a multi_edit_patch request (patch). Generated from src/core/contract/schemas.ts by npm run generate-schemas.',
    oneOf: [toolInputSchema(schemas.multi_edit), toolInputSchema(schemas.multi_edit_files), toolInputSchema(schemas.multi_edit_patch)],
  };
}

/** Keywords that only describe; every other keyword (type, required, additionalProperties...) would raise a warning. */
const DESCRIBING = new Set(['title', 'description', 'properties', 'items', 'anyOf', 'default']);

/** `schema` with only what describes fields: what completion and hovers need, nothing that warns. */
function describingOnly(schema) {
  if (Array.isArray(schema)) return schema.map(describingOnly);
  if (schema === null || typeof schema !== 'object') return schema;
  const kept = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'oneOf') kept.anyOf = describingOnly(value);
    else if (key === 'properties') kept.properties = Object.fromEntries(Object.entries(value).map(([name, field]) => [name, describingOnly(field)]));
    else if (DESCRIBING.has(key)) kept[key] = describingOnly(value);
  }
  return kept;
}

function editorSchema(requestSchema) {
  return {
    $schema: requestSchema.$schema,
    ...describingOnly({ ...requestSchema, description: 'The fields of a Multi-Edit request, for completion and hovers; Multi-Edit itself marks what is wrong in the file. Generated from src/core/contract/schemas.ts by npm run generate-schemas.' }),
  };
}

const schemas = await loadRequestJsonSchemas();

/** Writes `text` unless the file already holds the same JSON, so a no-op run keeps hand formatting. */
function writeJsonIfChanged(file, value, text) {
  let current;
  try {
    current = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    current = undefined;
  }
  if (JSON.stringify(current) === JSON.stringify(value)) {
    return false;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return true;
}

const pkg = JSON.parse(readFileSync(packageFile, 'utf8'));
const tools = pkg.contributes?.languageModelTools ?? [];
for (const name of Object.keys(schemas)) {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) {
    console.error(`package.json contributes.languageModelTools has no entry named "${name}"`);
    process.exit(1);
  }
  tool.inputSchema = toolInputSchema(schemas[name]);
}
const requestSchema = requestFileSchema(schemas);
const written = [
  writeJsonIfChanged(packageFile, pkg, `${JSON.stringify(pkg, null, 2)}\n`) && 'package.json',
  writeJsonIfChanged(requestSchemaFile, requestSchema, `${JSON.stringify(requestSchema, null, 2)}\n`) && relative(root, requestSchemaFile),
  writeJsonIfChanged(editorSchemaFile, editorSchema(requestSchema), `${JSON.stringify(editorSchema(requestSchema), null, 2)}\n`) && relative(root, editorSchemaFile),
  writeJsonIfChanged(coreSchemasFile, schemas, `${JSON.stringify(schemas, null, 2)}\n`) && relative(root, coreSchemasFile),
].filter(Boolean);
console.log(written.length > 0 ? `Updated ${written.join(', ')}` : 'The schemas are up to date');
