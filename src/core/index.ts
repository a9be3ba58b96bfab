/**
 * The core's public surface: everything src/node and src/vscode use, and nothing
 * else. Lint forbids importing a core module from outside src/core by any other path.
 */

// The contract: request and response schemas, tool names, error codes, limits, wording.
export * from './contract/schemas';
export * from './contract/toolNames';
export * from './contract/errorCodes';
export type { InsideIndentationPolicy, InsideTokenPolicy, Limits } from './contract/limits';
export { escapeControls } from './contract/envelope';
export { formatForModel, oldStringExcerpt, ordinal, plural } from './contract/format';
export { RepeatedFailures } from './report/repeatedFailures';
export { isRecord } from './contract/isRecord';
export { failureEntries, type FailureEntry, fileIndexOfStatus, isLeadPlace, leadFileIndex, isLeadStatus, leadFailure, otherFailures, userChoseOutcome } from './contract/responseReader';

// Requests and the engine.
export type { ParsedRequest, ParseResult, RequestInput, ResolvedRequest } from './request/request';
export { answersForOneFile, parseRequest, requestInput, toolForRequest } from './formats/inputFormats';
export { commitPlan, planParsedRequest, planRequest, runParsedRequest, runParsedRequestWithDiffPieces, runRequest, runRequestWithDiffPieces, type RequestPlan, type RequestRun } from './engine/engine';
export { surfaceOptions, type SurfaceParts, type SurfaceScope, type SurfaceSyntaxGate } from './engine/surfaceOptions';
export { undoRequest, type UndoOptions, type UndoRun } from './engine/undo';
export * from './contract/history';
export { newRequestId } from './contract/requestId';
export { historyFilesOf, holdsKept, type TextByteLength, type TextDigest } from './store/changeHistory';
export { DiffPieces } from './report/diff';
export type { PlannedFile, RefusedEditPlace } from './plan/filePlan';
export type { ReplacedSpan } from './matching/replacedSpans';
export type { CancellationSignal, EngineOptions, RetryPolicy } from './engine/options';

// Notebooks (.ipynb) read as cells, for the syntax gate and the editor.
export { isNotebookPath } from './notebook/notebookPath';
export { readNotebook, rawOffsetOf, withCellSources, type Notebook, type NotebookCell, type NotebookReading } from './notebook/notebookCells';

// The syntax gate's port the adapters implement.
export * from './syntax/syntaxChecker';

// The storage port the adapters implement.
export * from './store/fileStore';
export { errnoOf, storeFailureFromError } from './store/fsErrors';
export { defaultPathCheck, isAbsolutePath, isWindowsDevicePath, underRoot, withoutVerbatimPrefix, type PathCheck, type PathCheckResult } from './store/paths';
export { portableNameProblem, portablePathProblem } from './store/portableNames';

// Text and near misses, for the editor surfaces that show them.
export { LineIndex } from './text/lineIndex';
export { encodableSlices, sameText, wholeText, type EditedText, type TextView } from './text/editedText';
export { detectEol, withEol } from './text/eol';
export { isHighSurrogate } from './text/surrogates';
export { locateClosestMatch } from './nearMiss/closestMatch';
export { nearestNames } from './nearMiss/nearbyNames';
export { commonSubsequence } from './text/lcs';
export { lineRuns, splitLinesKeepingEnds } from './report/lineDiff';
