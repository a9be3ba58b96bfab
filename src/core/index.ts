/** The core's public surface, as the adapters (src/node, src/vscode) import it. */
export { commitPlan, planRequest, runRequest, type PlanResult, type PlannedFile, type RequestPlan } from './engine';
export { envelopeFor, type EnvelopeExtras } from './envelope';
export { formatForModel } from './format';
export { defaultPathCheck, hasParentSegment, isAbsolutePath } from './paths';
export { backoffDelays } from './retry';
export * from './errorCodes';
export * from './fileStore';
export * from './ids';
export * from './options';
export * from './schemas';
