/** Whether a path names a Jupyter notebook, by its extension: the one test every surface shares. */
export function isNotebookPath(path: string): boolean {
  return /\.ipynb$/i.test(path);
}
