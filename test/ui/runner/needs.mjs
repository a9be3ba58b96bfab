// Version checks scenarios answer `needs` with: what a VS Code build has (a scenario is skipped only
// for an API or a feature the build lacks).

/** Whether this VS Code is newer than 1.100, the minimum engines.vscode allows. */
export function isNewerThan1100(vscodeVersion) {
  const [major, minor] = vscodeVersion.split('.').map(Number);
  return major > 1 || minor > 100;
}

