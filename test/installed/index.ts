// The extensionTestsPath entry of the stranger extension (see package.json beside it): it runs with
// Multi-Edit installed from its .vsix, so Multi-Edit runs in production mode, as for a user.
import { runTestsIn } from '../shared/hostSuite';

export function run(): Promise<void> {
  return runTestsIn(__dirname);
}
