/**
 * Where a request's CPU goes, from Linux perf: each sample of `perf script` is put in one stage of the request's
 * path (kernel, libxml2, TOTP and HMAC, …) by walking its call chain from the leaf upward and taking the first
 * frame a rule of STAGE_RULES matches. Perf sees the kernel, Node's C++, WebAssembly and (with `node
 * --perf-basic-prof`) JIT-compiled JavaScript alike. The rules name files, packages and native symbols, not
 * functions, so that they survive renames inside a file.
 */

/** One sample: its call chain, leaf first, each frame a symbol (`JS:` for JavaScript) and the object it is in. */
export type Sample = Array<{ symbol: string; dso: string }>;

const packages = (names: string) => new RegExp(`node_modules/(${names.replace(/[/.-]/g, '\\$&')})/`);

/**
 * In order: for one frame, the first rule that matches wins (so the body reader's file is body reading before
 * dist/src/runtime/ is the runtime). Kernel frames count only in samples that entered the kernel through a
 * system call (the process's own work); a page fault or an interrupt goes to the code it interrupted.
 */
export const STAGE_RULES: ReadonlyArray<{ stage: string; frame: RegExp }> = [
  { stage: 'kernel', frame: /\(\[kernel\.kallsyms\]\)$/ },
  // V8's collector on every thread, and the write barrier.
  {
    stage: 'GC',
    frame:
      /v8::internal::(Heap|Scavenger|Scavenge|MarkCompact|MinorMarkCompact|\w*MarkingVisitor\w*|ConcurrentMarking|IncrementalMarking|Sweeper|GCTracer|MemoryAllocator|PagedSpace|SemiSpace|NewSpace|ArrayBufferSweeper|\w*Evacuat\w*|RecordMigratedSlotVisitor|MemoryChunk|LocalHeap)\b|Builtins_(RecordWrite|EphemeronKeyBarrier)/,
  },
  { stage: 'libxml2', frame: /wasm-function\[|node_modules\/libxml2-wasm\// },
  // OpenSSL's digests by name too, for a chain perf could not walk past their assembly.
  {
    stage: 'TOTP and HMAC',
    frame:
      /node:internal\/crypto\/(hash|hmac|keys|util)|dist\/src\/otp\/|node::crypto::|\b(HMAC_|EVP_Digest|EVP_MD_|SHA1_|SHA256_|sha1_block|sha256_block)/,
  },
  { stage: 'state store', frame: /dist\/src\/state\// },
  { stage: 'handlers', frame: /dist\/src\/(handlers|qr)\// },
  { stage: 'metrics', frame: /node_modules\/prom-client\/|dist\/src\/observability\/(metrics|metrics-endpoint|store-pressure)\.js/ },
  // The observation's own work (request id, timing) counts as the request log it is written for.
  {
    stage: 'request log',
    frame:
      /node_modules\/(pino|pino-std-serializers|quick-format-unescaped|safe-stable-stringify|@pinojs\/redact)\/|dist\/src\/(runtime\/request-log|observability\/(observe-requests|logger|log-destination))\.js/,
  },
  {
    stage: 'body reading',
    frame: /node_modules\/(koa-bodyparser|co-body|raw-body|inflation|bytes|unpipe|copy-to)\/|dist\/src\/runtime\/bindings\/body\.js/,
  },
  { stage: 'runtime (bindings, wire, routes)', frame: /dist\/src\/runtime\/|dist\/generated\/|dist\/src\/app\.js/ },
  {
    stage: 'Koa and router',
    frame: packages(
      'koa|koa-compose|@koa/router|path-to-regexp|delegates|accepts|negotiator|content-type|content-disposition|cookies|keygrip|type-is|' +
        'media-typer|mime-types|mime-db|statuses|http-errors|http-assert|on-finished|ee-first|vary|fresh|encodeurl|escape-html|destroy|parseurl|only|depd',
    ),
  },
  {
    stage: 'Node HTTP',
    frame:
      /node:(_http_\w+|net|internal\/streams\/\w+|stream|internal\/stream_base_commons|internal\/http|internal\/url|url|buffer|internal\/buffer)\b|llhttp|node::(http_parser|StreamBase|LibuvStreamWrap|StreamResource|WriteWrap|TCPWrap|ConnectionWrap)|\buv__(read|write|stream_io|io_poll|server_io|try_write)\b/,
  },
];

/** The call chains of `perf script`'s default output: a header line per sample, then one indented frame a line, leaf first. */
export function parsePerfScript(text: string): Sample[] {
  // A sample is a paragraph: its header, then its frames.
  return text
    .split(/\n\n+/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) =>
      paragraph.split('\n').flatMap((line) => {
        const frame = /^\s+[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)$/.exec(line);
        return frame ? [{ symbol: frame[1].replace(/\+0x[0-9a-f]+$/, ''), dso: frame[2] }] : [];
      }),
    );
}

const SYSCALL_ENTRY = /^(entry_SYSCALL|do_syscall_64)/;
/** libc's system call wrappers: without a hardware PMU, perf's timer fires on the way back from the kernel, just after the `syscall` instruction. */
const SYSCALL_WRAPPER =
  /^(__GI_+)?(__libc_)?(writev|write|read|readv|epoll_p?wait|sendmsg|recvmsg|accept4|close|mmap64|mmap|munmap|madvise|mprotect|__futex_abstimed_wait_common|__lll_lock_wait)$/;

/** The stage of one sample: the first frame from the leaf upward that a rule matches, else "other". */
export function stageOf(sample: Sample): string {
  if (sample[0]?.dso.includes('libc.so') && SYSCALL_WRAPPER.test(sample[0].symbol)) return 'kernel';
  const viaSyscall = sample.some((f) => f.dso === '[kernel.kallsyms]' && SYSCALL_ENTRY.test(f.symbol));
  for (const frame of sample) {
    const text = `${frame.symbol} (${frame.dso})`;
    const rule = STAGE_RULES.find((r) => (r.stage !== 'kernel' || viaSyscall) && r.frame.test(text));
    if (rule) return rule.stage;
  }
  return 'other';
}

export interface StageReport {
  samples: number;
  /** Each stage's share of all samples, in the order of the rules, then other. */
  shares: Array<{ stage: string; share: number }>;
}

export function stageReport(samples: Sample[]): StageReport {
  const counts = new Map<string, number>([...STAGE_RULES.map((r): [string, number] => [r.stage, 0]), ['other', 0]]);
  for (const stage of samples.map(stageOf)) counts.set(stage, counts.get(stage)! + 1);
  return { samples: samples.length, shares: [...counts].map(([stage, n]) => ({ stage, share: n / (samples.length || 1) })) };
}
