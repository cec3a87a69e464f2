/**
 * Reads one file that sources.json names (a certificate, a key, a PKCS#12, a passphrase file: README "KSeF") with
 * the checks every such read needs, at startup, on a re-read and in the expiry watch alike: it must be a regular
 * file (a FIFO would hold the read until a writer comes; /dev/zero never ends), and it is read from one open
 * handle, at most `maxBytes` + 1 bytes of it (one more than its size), so a file that grows while read is refused
 * rather than taken whole or in part.
 * It does not judge the content: key_files.ts does.
 * @module
 */
import { Buffer } from "node:buffer";
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";

/** A configured file's bytes and the permission bits of the handle they were read from. */
export interface ConfiguredFile {
  bytes: Uint8Array;
  /** st_mode of the open file (the key file's "others can read it" warning reads it). */
  mode: number;
}

/**
 * The bytes of `path`, or RangeError "`field` `path` …": not a regular file, larger than `maxBytes` (`what` says
 * what it then is not, e.g. "not a certificate or key"), or cannot be read (the error code only).
 */
export function readConfiguredFile(field: string, path: string, maxBytes: number, what: string): ConfiguredFile {
  const notRegular = () => new RangeError(`${field} ${path} is not a regular file (a directory, a FIFO or a device): name the file itself`);
  const tooLarge = () => new RangeError(`${field} ${path} is larger than ${maxBytes} bytes: ${what}`);
  let fd: number;
  try {
    // stat() before open(): opening a FIFO for reading waits for a writer, so one is refused before it is opened.
    if (!statSync(path).isFile()) throw notRegular();
    fd = openSync(path, "r");
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw _unreadable(field, path, e);
  }
  try {
    // fstat() of the handle: the file read is the one checked, even if the path was swapped in between.
    const s = fstatSync(fd);
    if (!s.isFile()) throw notRegular();
    if (s.size > maxBytes) throw tooLarge();
    const buffer = Buffer.alloc(Math.min(s.size, maxBytes) + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0;) length += n;
    // More than fstat() said: it grows while read (a log, a device that lies about its size).
    if (length > s.size) throw length > maxBytes ? tooLarge() : new RangeError(`${field} ${path} changed while it was read: write it elsewhere and rename it into place`);
    return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, length), mode: s.mode };
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw _unreadable(field, path, e);
  } finally {
    closeSync(fd);
  }
}

function _unreadable(field: string, path: string, e: unknown): RangeError {
  return new RangeError(`${field} ${path} cannot be read: ${(e as NodeJS.ErrnoException).code ?? "error"}`);
}
