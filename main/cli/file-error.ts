/**
 * A file system error in the words a command line's user reads: `cannot read nothere.json:
 * ENOENT: no such file or directory, open 'nothere.json'` repeated the path in Node's words
 * (outsider). The common codes get a few words; any other keeps Node's message.
 */
import { messageOf } from '../engine/api/errors.js';

const SAID: Record<string, string> = {
  ENOENT: 'there is no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of its path is a file, not a folder',
  ELOOP: 'its links go round in a loop',
  ENAMETOOLONG: 'its name is too long',
  EROFS: 'the disk is read-only',
  ENOSPC: 'the disk is full',
};

/** `writing`: a file made anew is not there by design, so a missing one is its folder. */
export function fileErrorSaid(error: unknown, writing = false): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (writing && code === 'ENOENT') return 'its folder is not there';
  return (code !== undefined && SAID[code]) || messageOf(error);
}
