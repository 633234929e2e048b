/**
 * Settings for every process a test run starts (vitest's workers, the servers and CLIs they
 * spawn), applied by both vitest configs before any worker forks, so each inherits them.
 *
 * On the 2-core machines this project is tested on, memory a process touches for the first time is
 * dear: about 12 µs a 4 KiB page (2.5–3 s per GiB, measured with a C program touching fresh pages),
 * against well under 1 µs on bare metal. A run used to touch hundreds of GiB afresh, mostly:
 * - glibc's malloc handing big blocks back to the system and asking again: V8 compiling PGlite's
 *   WebAssembly did so for every test file. Higher mmap and trim thresholds keep them for reuse.
 * - PGlite zeroing its 128 MB buffer pool at every start: the tests' databases take 4 MB, as the
 *   in-process ones do (test/app.ts).
 * Neither changes what the code does; a variable already set wins.
 */
/** The tests' PGlite buffer pool, in process (test/app.ts) and in the processes they start. */
export const TEST_PGLITE_SHARED_BUFFERS = '4MB';

export function tuneTestProcesses(env: NodeJS.ProcessEnv = process.env): void {
  env.GLIBC_TUNABLES ??= 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824:glibc.malloc.top_pad=67108864';
  env.PGLITE_SHARED_BUFFERS ??= TEST_PGLITE_SHARED_BUFFERS;
}

/**
 * Node flags of the test workers and of every server and CLI process a test starts: PGlite's
 * WebAssembly runs on V8's baseline compiler only. Optimising its hot functions (a few huge ones:
 * the executor, the parser) costs hundreds of MB of compiler memory in each process, which a short
 * test process never earns back here: control and kill tests 91 → 69 CPU-s, the ledger property,
 * ROI and watcher tests 64 → 55 CPU-s, measured on this machine.
 */
export const TEST_NODE_FLAGS = ['--liftoff-only'];
