// The mocha run inside the extension host, shared by the extensionTestsPath entries
// (test/integration, test/installed): it runs every compiled *.test.js below a folder (tdd:
// suite/test) and keeps a results file (named by MULTI_EDIT_TEST_RESULTS) up to date after each
// test, so a runner can report progress and partial results even when the host hangs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

const TEST_TIMEOUT_MS = 30_000;

interface TestRecord {
  readonly title: string;
  readonly state: 'passed' | 'failed' | 'skipped';
  readonly durationMs?: number;
  readonly error?: string;
}

interface RunRecord {
  passed: number;
  failed: number;
  /** Tests that do not apply to this VS Code version (they call this.skip() and say why). */
  skipped: number;
  finished: boolean;
  /** The test that has started and not yet ended, so a timed-out run can name it. */
  running?: string;
  readonly tests: TestRecord[];
}

function findTestFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort()
    .map((file) => path.join(dir, file));
}

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Writes the record atomically, so a reader never sees half a file. */
function createRecorder(resultsFile: string | undefined): { record: RunRecord; save(): void } {
  const record: RunRecord = { passed: 0, failed: 0, skipped: 0, finished: false, tests: [] };
  const save = (): void => {
    if (!resultsFile) return;
    const partial = `${resultsFile}.partial`;
    fs.writeFileSync(partial, JSON.stringify(record, null, 2));
    fs.renameSync(partial, resultsFile);
  };
  return { record, save };
}

/** Runs every compiled *.test.js below `dir` with mocha and keeps the results file up to date. */
export function runTestsIn(dir: string): Promise<void> {
  const { record, save } = createRecorder(process.env.MULTI_EDIT_TEST_RESULTS);
  const mocha = new Mocha({ ui: 'tdd', timeout: TEST_TIMEOUT_MS, color: false, reporter: 'spec' });
  // MULTI_EDIT_TEST_GREP runs only the tests whose full title matches.
  if (process.env.MULTI_EDIT_TEST_GREP) mocha.grep(process.env.MULTI_EDIT_TEST_GREP);
  for (const file of findTestFiles(dir)) mocha.addFile(file);
  save();

  return new Promise((resolve, reject) => {
    const fail = (title: string, error: unknown): void => {
      record.running = undefined;
      record.failed++;
      record.tests.push({ title, state: 'failed', error: describeError(error) });
      save();
    };
    const finish = (): void => {
      record.finished = true;
      save();
      if (record.failed > 0) reject(new Error(`${record.failed} test(s) failed`));
      else if (record.passed === 0) reject(new Error('no tests ran'));
      else resolve();
    };
    try {
      mocha.run(finish)
        .on('test', (test) => {
          record.running = test.fullTitle();
          save();
        })
        .on('pass', (test) => {
          record.running = undefined;
          record.passed++;
          record.tests.push({ title: test.fullTitle(), state: 'passed', durationMs: test.duration ?? 0 });
          save();
        })
        .on('pending', (test) => {
          record.running = undefined;
          record.skipped++;
          record.tests.push({ title: test.fullTitle(), state: 'skipped' });
          save();
        })
        .on('fail', (test, error) => fail(test.fullTitle(), error));
    } catch (error) {
      // A test file that throws while loading stops the run before any test starts.
      fail('loading the test files', error);
      finish();
    }
  });
}
