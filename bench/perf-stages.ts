/**
 * Where a request's CPU goes, from Linux perf: each sample of `perf script`
 * is put in one stage of the request's path (kernel, libxml2, TOTP and HMAC,
 * …) by walking its call chain from the leaf upward and taking the first
 * frame that a rule of STAGE_RULES matches. Perf sees the kernel, Node's
 * C++, WebAssembly and (with `node --perf-basic-prof`) JIT-compiled
 * JavaScript alike, where V8's --cpu-prof charges kernel time to `writev`.
 *
 * The rules name files and symbols (dist/src/state/, node_modules/pino/,
 * v8::internal::Heap…), not functions, so that they survive renames inside
 * src/. Tuned on the `perf script` output of the built service under the
 * bench's load.
 *
 *   node --import=tsx bench/perf-stages.ts FILE   (the text of `perf script`)
 */
import { readFileSync } from 'node:fs';

/** One frame of a call chain: the symbol (JavaScript frames start with `JS:`) and the object it is in. */
export interface Frame {
  symbol: string;
  dso: string;
}

/** One sample: its call chain, leaf first. */
export interface Sample {
  frames: Frame[];
}

export const STAGES = [
  'kernel',
  'libxml2',
  'TOTP and HMAC',
  'state store',
  'handlers',
  'request log',
  'metrics',
  'body reading',
  'SOAP/HTTP bindings',
  'Koa and router',
  'Node HTTP',
  'GC',
  'other',
] as const;
export type Stage = (typeof STAGES)[number];

interface StageRule {
  stage: Exclude<Stage, 'other'>;
  /** Matched against `symbol (dso)` of a frame, e.g. `JS:*soap /x/dist/src/bindings/soap.js:12:31 (/tmp/perf-1.map)`. */
  frame: RegExp;
}

/** Koa's own helper packages count as Koa. */
const KOA_PACKAGES = [
  'koa',
  'koa-compose',
  '@koa/router',
  'path-to-regexp',
  'delegates',
  'accepts',
  'negotiator',
  'content-type',
  'content-disposition',
  'cookies',
  'keygrip',
  'type-is',
  'media-typer',
  'mime-types',
  'mime-db',
  'statuses',
  'http-errors',
  'http-assert',
  'on-finished',
  'ee-first',
  'vary',
  'fresh',
  'encodeurl',
  'escape-html',
  'destroy',
  'parseurl',
  'only',
  'depd',
];
const inPackages = (names: string[]) => `node_modules/(${names.map((n) => n.replace(/[/.-]/g, '\\$&')).join('|')})/`;

/**
 * The rules, in order: for one frame, the first rule that matches wins (so
 * `dist/src/bindings/body` is body reading before `dist/src/bindings/` is a
 * binding). The kernel rule applies only to samples that entered the kernel
 * through a system call (see stageOf).
 */
export const STAGE_RULES: readonly StageRule[] = [
  { stage: 'kernel', frame: /\(\[kernel\.kallsyms\]\)$/ },
  // V8's collector: scavenges, mark-compact, concurrent marking and sweeping on the helper threads, allocation slow paths.
  {
    stage: 'GC',
    frame:
      /v8::internal::(Heap|Scavenger|Scavenge|MarkCompact|MinorMarkCompact|MarkingVisitor|ConcurrentMarking|IncrementalMarking|Sweeper|GCTracer|MemoryAllocator|PagedSpace|SemiSpace|NewSpace|MainMarkingVisitor|MarkingVisitorBase|ConcurrentMarkingVisitor|ArrayBufferSweeper|EvacuateVisitor|Evacuator|FullEvacuator|RecordMigratedSlotVisitor|MemoryChunk|LocalHeap)\b|Builtins_(RecordWrite|EphemeronKeyBarrier)/,
  },
  { stage: 'libxml2', frame: /wasm-function\[|node_modules\/libxml2-wasm\// },
  // OpenSSL's digest functions by name too, for a chain perf could not walk past its assembly.
  {
    stage: 'TOTP and HMAC',
    frame:
      /node:internal\/crypto\/(hash|hmac|keys|util)|dist\/src\/otp\/|node::crypto::|\b(HMAC_|EVP_Digest|EVP_MD_|SHA1_|SHA256_|sha1_block|sha256_block)/,
  },
  { stage: 'state store', frame: /dist\/src\/state\// },
  { stage: 'handlers', frame: /dist\/src\/handlers\// },
  { stage: 'metrics', frame: /node_modules\/prom-client\/|dist\/src\/observability\/(metrics|metrics-endpoint|store-pressure)\.js/ },
  // The observation's own work (request id, timing) counts as the request log it is written for.
  {
    stage: 'request log',
    frame:
      /node_modules\/(pino|pino-std-serializers|quick-format-unescaped|safe-stable-stringify|@pinojs\/redact)\/|dist\/src\/(runtime\/request-log|observability\/(observe-requests|request-log|logger|log-destination))\.js/,
  },
  // koa-bodyparser reads every body as text (co-body, raw-body, inflation); its form and JSON parsers are not used.
  {
    stage: 'body reading',
    frame: /node_modules\/(koa-bodyparser|co-body|raw-body|inflation|bytes|unpipe|copy-to)\/|dist\/src\/bindings\/body\.js/,
  },
  {
    stage: 'SOAP/HTTP bindings',
    frame: /dist\/src\/(bindings|xml|wire)\/|dist\/generated\/|dist\/src\/(app|call-state|contract|errors)\.js/,
  },
  { stage: 'Koa and router', frame: new RegExp(inPackages(KOA_PACKAGES)) },
  {
    stage: 'Node HTTP',
    frame:
      /node:(_http_\w+|net|internal\/streams\/\w+|stream|internal\/stream_base_commons|internal\/http|internal\/url|url|buffer|internal\/buffer)\b|llhttp|node::(http_parser|StreamBase|LibuvStreamWrap|StreamResource|WriteWrap|TCPWrap|ConnectionWrap)|\buv__(read|write|stream_io|io_poll|server_io|try_write)\b/,
  },
];

/** The call chains of `perf script`'s default output: a header line per sample, then one frame a line, leaf first. */
export function parsePerfScript(text: string): Sample[] {
  const samples: Sample[] = [];
  let current: Sample | undefined;
  for (const line of text.split('\n')) {
    if (line === '') {
      current = undefined;
      continue;
    }
    if (!/^\s/.test(line)) {
      // The sample's header (`comm  tid  time:  period event:`); its frames follow, indented.
      current = { frames: [] };
      samples.push(current);
      continue;
    }
    const frame = /^\s*[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)$/.exec(line);
    if (current && frame) current.frames.push({ symbol: frame[1].replace(/\+0x[0-9a-f]+$/, ''), dso: frame[2] });
  }
  return samples;
}

const describe = (frame: Frame) => `${frame.symbol} (${frame.dso})`;
const SYSCALL_ENTRY = /^(entry_SYSCALL|do_syscall_64)/;
/**
 * A leaf in libc's system call wrappers is kernel time too: without a hardware PMU, perf's cpu-clock timer
 * fires on the way back from the kernel and the sample lands just after the `syscall` instruction.
 */
const SYSCALL_WRAPPER =
  /^(__GI_+)?(__libc_)?(writev|write|read|readv|epoll_p?wait|sendmsg|recvmsg|accept4|close|mmap64|mmap|munmap|madvise|mprotect|__futex_abstimed_wait_common|__lll_lock_wait)$/;

const wrapperName = (frame: Frame | undefined) =>
  frame?.dso.includes('libc.so') && SYSCALL_WRAPPER.test(frame.symbol)
    ? frame.symbol.replace(SYSCALL_WRAPPER, '$3').replace(/^__(futex|lll).*/, 'futex')
    : undefined;

/** The system call a sample is in, when it is in one: named by its libc wrapper, else by its kernel handler. */
function syscallOf(sample: Sample): string | undefined {
  const leaf = wrapperName(sample.frames[0]);
  if (leaf) return leaf;
  const entry = sample.frames.findIndex((f) => f.dso === '[kernel.kallsyms]' && SYSCALL_ENTRY.test(f.symbol));
  if (entry < 0) return undefined;
  const caller = sample.frames.slice(entry).find((f) => f.dso !== '[kernel.kallsyms]');
  const handler = sample.frames.slice(0, entry).find((f) => f.symbol.startsWith('__x64_sys_'));
  return wrapperName(caller) ?? handler?.symbol.slice('__x64_sys_'.length) ?? caller?.symbol ?? 'unknown';
}

/** The stage of one sample: the first frame from the leaf upward that a rule matches, else `other`. */
export function stageOf(sample: Sample): Stage {
  if (wrapperName(sample.frames[0])) return 'kernel';
  // Kernel time that is the process's own work (network send and receive, epoll) came in through a system call;
  // a page fault or an interrupt is charged to the code it interrupted instead.
  const viaSyscall = sample.frames.some((f) => f.dso === '[kernel.kallsyms]' && SYSCALL_ENTRY.test(f.symbol));
  for (const frame of sample.frames) {
    const text = describe(frame);
    for (const rule of STAGE_RULES) {
      if (rule.stage === 'kernel' && !viaSyscall) continue;
      if (rule.frame.test(text)) return rule.stage;
    }
  }
  return 'other';
}

/** What "other" is made of, named in the report: the first of these a frame of the sample matches, else its leaf. */
const OTHER_KINDS: readonly { kind: string; frame: RegExp }[] = [
  {
    kind: "V8's optimizing compiler (its own threads and the main thread)",
    frame: /v8::internal::(compiler::|maglev::|baseline::|Compiler::|OptimizingCompileDispatcher)/,
  },
  {
    kind: 'malloc and free whose caller perf could not walk (C++ built without frame pointers)',
    frame: /^(malloc|_int_malloc|_int_free|cfree|free|unlink_chunk|malloc_consolidate|realloc|calloc)\b.*\(\S*libc\.so/,
  },
  { kind: 'the event loop itself (libuv, timers, immediates)', frame: /\buv_run\b|uv__run_|node::Environment::(CheckImmediate|RunTimers)/ },
];

function otherKindOf(sample: Sample): string {
  for (const frame of sample.frames) {
    const text = describe(frame);
    const known = OTHER_KINDS.find((k) => k.frame.test(text));
    if (known) return known.kind;
  }
  return sample.frames[0] ? shortFrame(sample.frames[0]) : '(no frames)';
}

export interface StageShare {
  stage: Stage;
  samples: number;
  share: number;
}

export interface StageReport {
  samples: number;
  stages: StageShare[];
  /** What "other" holds, most frequent first (share of all samples): a kind from OTHER_KINDS, or a leaf frame. */
  other: { name: string; share: number }[];
  /** The system calls the kernel stage's samples came through, most frequent first (share of all samples). */
  syscalls: { name: string; share: number }[];
}

/** Stage shares of a set of samples, in the order of STAGES, with what `other` and `kernel` are made of. */
export function stageReport(samples: Sample[], top = 8): StageReport {
  const counts = new Map<Stage, number>(STAGES.map((s) => [s, 0]));
  const other = new Map<string, number>();
  const syscalls = new Map<string, number>();
  for (const sample of samples) {
    const stage = stageOf(sample);
    counts.set(stage, counts.get(stage)! + 1);
    if (stage === 'other') {
      const kind = otherKindOf(sample);
      other.set(kind, (other.get(kind) ?? 0) + 1);
    } else if (stage === 'kernel') {
      const name = syscallOf(sample) ?? 'unknown';
      syscalls.set(name, (syscalls.get(name) ?? 0) + 1);
    }
  }
  const total = samples.length || 1;
  const ranked = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => ({ name, share: n / total }));
  return {
    samples: samples.length,
    stages: STAGES.map((stage) => ({ stage, samples: counts.get(stage)!, share: counts.get(stage)! / total })),
    other: ranked(other),
    syscalls: ranked(syscalls),
  };
}

/** A frame for a human: a JavaScript function with its file's last two segments, or a native symbol with its object's name. */
function shortFrame(frame: Frame): string {
  const js = /^JS:[*~^]?(\S*)\s+(\S+)/.exec(frame.symbol);
  if (js) return `${js[1] || '(anonymous)'} ${js[2].split('/').slice(-2).join('/')}`;
  return `${frame.symbol.slice(0, 80)} (${frame.dso.split('/').pop()})`;
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node --import=tsx bench/perf-stages.ts FILE   (the output of `perf script`)');
    process.exit(2);
  }
  const report = stageReport(parsePerfScript(readFileSync(file, 'utf8')), 25);
  console.log(`${report.samples} samples`);
  for (const s of report.stages) console.log(`${(s.share * 100).toFixed(1).padStart(5)} %  ${s.stage}`);
  console.log('\nother, by leaf frame:');
  for (const o of report.other) console.log(`${(o.share * 100).toFixed(1).padStart(5)} %  ${o.name}`);
  console.log('\nkernel, by system call:');
  for (const k of report.syscalls) console.log(`${(k.share * 100).toFixed(1).padStart(5)} %  ${k.name}`);
}
