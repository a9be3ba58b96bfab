// The extensionTestsPath entry of the integration suite: VS Code calls run() inside the extension
// host, with this checkout as the extension under development.
import { runTestsIn } from '../shared/hostSuite';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
