import { endianness } from "node:os";

/**
 * The kernel's key management calls (`add_key`, `request_key`, `keyctl`) by audit architecture.
 * A sandboxed process keeps the session keyring it inherits (bubblewrap gives it no new one), so
 * without this filter it reads every key the user's login session holds: Kerberos tickets
 * (`KEYRING:` credential caches), keys of credential helpers that store them there, ecryptfs keys.
 */
interface Abi {
  /** `AUDIT_ARCH_*`: what `seccomp_data.arch` says for a call made through this ABI. */
  arch: number;
  /** add_key, request_key, keyctl. */
  calls: readonly [number, number, number];
  /** x86_64's x32 calls carry this bit in their number (the same numbers otherwise). */
  x32Bit?: number;
}

const X86_64: Abi = { arch: 0xc000003e, calls: [248, 249, 250], x32Bit: 0x40000000 };
const I386: Abi = { arch: 0x40000003, calls: [286, 287, 288] };
const AARCH64: Abi = { arch: 0xc00000b7, calls: [217, 218, 219] };
const ARM: Abi = { arch: 0x40000028, calls: [309, 310, 311] };
const RISCV64: Abi = { arch: 0xc00000f3, calls: [217, 218, 219] };
const LOONGARCH64: Abi = { arch: 0xc0000102, calls: [217, 218, 219] };
const PPC64LE: Abi = { arch: 0xc0000015, calls: [269, 270, 271] };
const PPC64: Abi = { arch: 0x80000015, calls: [269, 270, 271] };
const S390X: Abi = { arch: 0x80000016, calls: [278, 279, 280] };

/** Every ABI a process may call the kernel through on a host of each Node architecture. */
const ABIS_BY_HOST: Readonly<Record<string, readonly Abi[]>> = {
  x64: [X86_64, I386],
  ia32: [I386],
  arm64: [AARCH64, ARM],
  arm: [ARM],
  riscv64: [RISCV64],
  loong64: [LOONGARCH64],
  ppc64: [PPC64LE, PPC64],
  s390x: [S390X],
};

// Classic BPF opcodes and seccomp's return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const AND_K = 0x54;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
/** ENOSYS: the call does not exist here, so programs fall back as on a kernel without keyrings. */
const RET_ENOSYS = 0x00050000 | 38;
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;

type Instruction = [code: number, jt: number, jf: number, k: number];

/** One ABI's block: load the call number, refuse the key calls, allow the rest. */
function abiBlock(abi: Abi): Instruction[] {
  const block: Instruction[] = [[LD_W_ABS, 0, 0, OFFSET_NR]];
  if (abi.x32Bit !== undefined) block.push([AND_K, 0, 0, ~abi.x32Bit >>> 0]);
  const [a, b, c] = abi.calls;
  // Each JEQ jumps to the refusal at the block's end when it matches.
  block.push([JEQ_K, 3, 0, a], [JEQ_K, 2, 0, b], [JEQ_K, 1, 0, c], [RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_ENOSYS]);
  return block;
}

/** The filter's instructions for these ABIs: a call through any other ABI is refused whole. */
function program(abis: readonly Abi[]): Instruction[] {
  const blocks = abis.map(abiBlock);
  const out: Instruction[] = [[LD_W_ABS, 0, 0, OFFSET_ARCH]];
  // The architecture checks (one per ABI), a refusal for any other ABI, then the blocks in order:
  // the check at index 1 + i jumps over the checks after it and the refusal, then the earlier blocks.
  let before = 0;
  abis.forEach((abi, i) => {
    out.push([JEQ_K, abis.length - i + before, 0, abi.arch]);
    before += blocks[i]?.length ?? 0;
  });
  out.push([RET_K, 0, 0, RET_ENOSYS]);
  for (const block of blocks) out.push(...block);
  return out;
}

/**
 * The seccomp filter every sandboxed command runs under (bubblewrap's `--seccomp`, a compiled
 * classic BPF program in the host's byte order): it refuses the kernel keyring calls, so a command
 * cannot read the keys of the session that started Gatehouse, and every call through an ABI the
 * host does not have. `undefined` on an architecture the table does not know (no filter there).
 * Contract: 8 bytes per instruction (`struct sock_filter`); every jump lands inside the program.
 */
export function keyringFilter(hostArch: string = process.arch, order: "BE" | "LE" = endianness()): Buffer | undefined {
  const abis = Object.hasOwn(ABIS_BY_HOST, hostArch) ? ABIS_BY_HOST[hostArch] : undefined;
  if (!abis) return undefined;
  const instructions = program(abis);
  const buffer = Buffer.alloc(instructions.length * 8);
  instructions.forEach(([code, jt, jf, k], i) => {
    if (order === "LE") {
      buffer.writeUInt16LE(code, i * 8);
      buffer.writeUInt32LE(k >>> 0, i * 8 + 4);
    } else {
      buffer.writeUInt16BE(code, i * 8);
      buffer.writeUInt32BE(k >>> 0, i * 8 + 4);
    }
    buffer.writeUInt8(jt, i * 8 + 2);
    buffer.writeUInt8(jf, i * 8 + 3);
  });
  return buffer;
}
