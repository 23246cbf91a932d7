import { describe, expect, it } from "vitest";
import { keyringFilter } from "../../src/sandbox/seccomp-filter.ts";

const ALLOW = 0x7fff0000;
const ENOSYS = 0x00050000 | 38;
const ARCH = { x86_64: 0xc000003e, i386: 0x40000003, aarch64: 0xc00000b7, arm: 0x40000028, s390x: 0x80000016 };

/** Runs a classic BPF program (the few opcodes the filter uses) on one call, as the kernel would. */
function run(program: Buffer, call: { arch: number; nr: number }): number {
  let acc = 0;
  for (let pc = 0, steps = 0; steps < 1000; steps += 1) {
    expect(pc * 8).toBeLessThan(program.length);
    const code = program.readUInt16LE(pc * 8);
    const [jt, jf, k] = [
      program.readUInt8(pc * 8 + 2),
      program.readUInt8(pc * 8 + 3),
      program.readUInt32LE(pc * 8 + 4),
    ];
    if (code === 0x06) return k;
    if (code === 0x20) acc = k === 0 ? call.nr : call.arch;
    else if (code === 0x54) acc = (acc & k) >>> 0;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else throw new Error(`unexpected opcode ${code}`);
    pc += 1;
  }
  throw new Error("the program does not end");
}

describe("the sandbox's seccomp filter", () => {
  it("refuses the keyring calls of every ABI an x86_64 host has (x32 included) and allows the rest", () => {
    const program = keyringFilter("x64", "LE");
    if (!program) throw new Error("no filter for x64");
    for (const nr of [248, 249, 250, 0x40000000 | 250]) expect(run(program, { arch: ARCH.x86_64, nr })).toBe(ENOSYS);
    for (const nr of [286, 287, 288]) expect(run(program, { arch: ARCH.i386, nr })).toBe(ENOSYS);
    for (const nr of [0, 1, 59, 247, 251, 0x40000000 | 1]) expect(run(program, { arch: ARCH.x86_64, nr })).toBe(ALLOW);
    for (const nr of [4, 11, 250]) expect(run(program, { arch: ARCH.i386, nr })).toBe(ALLOW);
    // An ABI the host does not have is refused whole.
    expect(run(program, { arch: ARCH.aarch64, nr: 64 })).toBe(ENOSYS);
  });

  it("knows the arm64 host's two ABIs and the other Linux architectures Node runs on", () => {
    const program = keyringFilter("arm64", "LE");
    if (!program) throw new Error("no filter for arm64");
    for (const nr of [217, 218, 219]) expect(run(program, { arch: ARCH.aarch64, nr })).toBe(ENOSYS);
    for (const nr of [309, 310, 311]) expect(run(program, { arch: ARCH.arm, nr })).toBe(ENOSYS);
    expect(run(program, { arch: ARCH.aarch64, nr: 64 })).toBe(ALLOW);
    for (const arch of ["arm", "ia32", "riscv64", "loong64", "ppc64", "s390x"])
      expect(keyringFilter(arch)).toBeDefined();
    expect(keyringFilter("mips")).toBeUndefined();
    // A big-endian host gets the program in its byte order.
    const be = keyringFilter("s390x", "BE");
    if (!be) throw new Error("no filter for s390x");
    const le = Buffer.from(be);
    for (let at = 0; at < le.length; at += 8) {
      le.writeUInt16LE(be.readUInt16BE(at), at);
      le.writeUInt32LE(be.readUInt32BE(at + 4), at + 4);
    }
    expect(run(le, { arch: ARCH.s390x, nr: 280 })).toBe(ENOSYS);
    expect(run(le, { arch: ARCH.s390x, nr: 1 })).toBe(ALLOW);
  });
});
