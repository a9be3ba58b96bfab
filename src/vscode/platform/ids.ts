/** Every ID the extension exposes to VS Code, in one place (the tool names come from the core). */
import { TOOL_MULTI_EDIT, TOOL_MULTI_EDIT_FILES, TOOL_MULTI_EDIT_PATCH, type ToolName } from '../../core/index';

export const EXTENSION_ID = 'multi-edit.multi-edit';
export const DIAGNOSTIC_SOURCE = 'multi-edit';
/** Markers in request files have a source of their own, so they are not taken for failures in the edited files. */
export const REQUEST_MARKER_SOURCE = `${DIAGNOSTIC_SOURCE} request`;
export const CONFIG_SECTION = 'multiEdit';

export const TOOL_REFERENCE_NAMES: Record<ToolName, string> = {
  [TOOL_MULTI_EDIT]: 'multiEdit',
  [TOOL_MULTI_EDIT_FILES]: 'multiEditFiles',
  [TOOL_MULTI_EDIT_PATCH]: 'multiEditPatch',
};

/** The chat participant: `@multiedit`, with its slash commands. */
export const CHAT_PARTICIPANT_ID = 'multi-edit.multiedit';
export const CHAT_PARTICIPANT_NAME = 'multiedit';
export const CHAT_COMMANDS = { apply: 'apply', preview: 'preview', explain: 'explain' } as const;

export const COMMANDS = {
  applyRequest: 'multiEdit.applyRequest',
  previewRequest: 'multiEdit.previewRequest',
  showLastEnvelope: 'multiEdit.showLastEnvelope',
  clearDiagnostics: 'multiEdit.clearDiagnostics',
  peekMatches: 'multiEdit.peekMatches',
  retryWithReplaceAll: 'multiEdit.retryWithReplaceAll',
  openFailedRequest: 'multiEdit.openFailedRequest',
  showEnvelope: 'multiEdit.showEnvelope',
  copyEnvelope: 'multiEdit.copyEnvelope',
  copyHints: 'multiEdit.copyHints',
  rerunRequest: 'multiEdit.rerunRequest',
  dismissDiagnostic: 'multiEdit.dismissDiagnostic',
  compareWithFile: 'multiEdit.compareWithFile',
  undoLastRequest: 'multiEdit.undoLastRequest',
  showRequestHistory: 'multiEdit.showRequestHistory',
  useNearMatch: 'multiEdit.useNearMatch',
  applyAnyway: 'multiEdit.applyAnyway',
} as const;

export const OUTPUT_CHANNEL_NAME = 'Multi-Edit';
/** URI scheme of the read-only envelope and request documents. */
export const READ_ONLY_SCHEME = 'multi-edit';
export const REQUEST_FILE_GLOB = '*.multiedit.json';
/** Patch files (any of the three patch formats, SEARCH/REPLACE blocks included) run as multi_edit_patch requests. */
export const PATCH_FILE_GLOB = '*.{patch,diff}';
