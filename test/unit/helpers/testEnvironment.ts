// Loaded before every unit test (.mocharc.json "require"): the history of the requests the
// tests apply goes to a folder of this run, not to the user's state folder, and every CLI
// or server process a test starts inherits it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

process.env.MULTI_EDIT_HISTORY_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'multi-edit-test-history-'));
