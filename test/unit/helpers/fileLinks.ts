/**
 * Whether this system makes symbolic links a test can follow. Windows without the privilege
 * refuses them (EPERM), and Wine reports success while making none, so a test of what a
 * link leads to asks first and is skipped, with the reason, where links cannot be made.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export function linksWork(dir: string): boolean {
  const target = path.join(dir, '.link-probe-target');
  const link = path.join(dir, '.link-probe');
  try {
    fs.writeFileSync(target, 'probe');
    fs.symlinkSync(target, link);
    return fs.lstatSync(link).isSymbolicLink() && fs.readFileSync(link, 'utf8') === 'probe';
  } catch {
    return false;
  } finally {
    fs.rmSync(link, { force: true });
    fs.rmSync(target, { force: true });
  }
}
