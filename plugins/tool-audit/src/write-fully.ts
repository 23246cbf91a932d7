import { writeSync } from "node:fs";

/**
 * Writes all of `data` to `fd`: one `write(2)` for anything a regular file takes whole, more only
 * if the kernel wrote part of it (then lines of another process could come between the parts).
 * Contract: throws the system error of a failed write.
 */
export function writeFully(fd: number, data: string | Buffer): void {
  if (typeof data !== "string") {
    let offset = 0;
    while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
    return;
  }
  const first = writeSync(fd, data);
  const total = Buffer.byteLength(data, "utf8");
  if (first >= total) return;
  const bytes = Buffer.from(data, "utf8");
  let offset = first;
  while (offset < total) offset += writeSync(fd, bytes, offset, total - offset);
}
