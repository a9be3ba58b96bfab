/**
 * The core's public surface: everything src/node and src/vscode may use, and
 * nothing else. Lint forbids importing a core module from outside src/core by any
 * other path.
 */

// The contract: request and response schemas, tool names, error codes, envelopes, wording.
export * from './contract/schemas';
export * from './contract/toolNames';
export * from './contract/errorCodes';
export { envelopeFor, escapeControls, type EnvelopeExtras } from './contract/envelope';
export { formatForModel, plural } from './contract/format';

// Requests and the engine.
export { parseRequest, requestInput, toolForRequest, type ParsedRequest, type ResolvedFile, type ResolvedRequest } from './request/request';
export { commitPlan, planRequest, runRequest, type PlanResult, type PlannedFile, type RequestPlan, type RequestRun } from './engine/engine';
export { preview } from './engine/plan';
export * from './engine/options';
export { backoffDelays } from './engine/retry';

// The syntax gate's port the adapters implement.
export * from './syntax/syntaxChecker';

// The storage port the adapters implement.
export * from './store/fileStore';
export { errnoOf, storeFailureFromError } from './store/fsErrors';
export { defaultPathCheck, hasParentSegment, isAbsolutePath } from './store/paths';

// Text, near misses and reports, for the editor surfaces that show them.
export { LineIndex } from './text/lineIndex';
export { detectEol, withEol } from './text/eol';
export { locateClosestMatch } from './nearMiss/closestMatch';
export { nearestNames } from './nearMiss/nearbyNames';
export { commonSubsequence } from './text/lcs';
export { successResponse } from './report/successReport';
export { unifiedDiff } from './report/diff';
export { lineRuns, splitLinesKeepingEnds } from './report/lineDiff';
