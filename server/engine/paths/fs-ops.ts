// The names of the filesystem seam's operations, as its hook sees them (tests count, crash or
// fail them by name): shared by the seam and the helpers it hands work to.
export type FsOpName =
  | 'lstat'
  | 'stat'
  | 'readFile'
  | 'readlink'
  | 'realpath'
  | 'readdir'
  | 'mkdir'
  | 'rmdir'
  | 'unlink'
  | 'rm'
  | 'rename'
  | 'symlink'
  | 'chmod'
  | 'writeFile'
  | 'open'
  | 'write'
  | 'truncate'
  | 'fsync'
  | 'close'
  | 'read'
  | 'copyFile'
  | 'cp';

export type BeforeOp = (op: FsOpName, target: string) => void | Promise<void>;
