# The two commands a new user needs: `make run` and `make test`.
# Everything else is here for contributors and CI.

TSX := node --import=tsx
SYSTEM_TESTS := $(wildcard test/system/*.test.ts)

.PHONY: install generate check-generated build run test test-all typecheck lint clean fuzz soak

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.installed

## generate: schema/ -> generated/ (libxml2-wasm, ts-morph, handlebars); src/config.ts -> docs/operations.md's settings table
generate: install
	npm run generate

## check-generated: fail when generated/ (or the settings table of docs/operations.md) differs from what codegen produces
check-generated: generate
	git diff --exit-code --stat -- generated/ docs/operations.md
	@test -z "$$(git status --porcelain -- generated/)" || { echo "generated/ has files codegen did not write"; git status --porcelain -- generated/; exit 1; }

## build: dist/, as `npm run build` builds it (the compiled code and the help pages' templates)
build: install
	npm run build

## run: the service on port 8080 (settings: ARGS="--port 9000" or PIN_* variables)
run: build
	node dist/src/main.js $(ARGS)

typecheck: install
	npm run typecheck

## lint: Biome's formatter and linter over src/, codegen/, test/ and bench/ (biome.json); `npm run format` fixes what it can
lint: install
	npm run lint

## test: everything that needs only Node.js and npm (`npm test`: the type check, lint, then ava)
test: install
	npm test

## test-all: test, then the suites that need Debian packages (see .ci/run)
test-all: test build
ifneq ($(SYSTEM_TESTS),)
	npx ava --config ava.system.config.cjs
endif

## fuzz: hostile requests at the service in a child process (FUZZ_CASES=20000 FUZZ_SEED=1 FUZZ_MAX_SECONDS=180); make test-all runs 1 500
fuzz: install
	$(TSX) test/fuzz/main.ts

## soak: the built service under steady mixed load for 9 minutes (SOAK_SECONDS=540 SOAK_WARMUP=180 SOAK_RATE=300
##       SOAK_SECRETS=10000 SOAK_RESULTS=bench/RESULTS.md, - for none); figures into bench/RESULTS.md
soak: build
	$(TSX) bench/soak.ts

.PHONY: bench bench-store bench-store-replicas
## bench: ours vs ours at a baseline revision vs the npm soap server vs a bare Koa ceiling, autocannon on loopback,
##        interleaved rounds, then ours under perf (~35 min); writes bench/RESULTS.md, results.json, cpu-per-request.svg
##        BENCH_ROUNDS=3 BENCH_CONNECTIONS=50 BENCH_WARMUP=2 BENCH_DURATION=8 BENCH_FRESH_DURATION=60
##        BENCH_BEFORE=<revision> (default: bench/baseline-revision; empty: no before row)
##        BENCH_PROFILES=0 skips the perf step (which needs Debian's linux-perf)
##        subsets: BENCH_SCENARIOS=soap11-validate,... BENCH_SERVERS=ours,before,peer,ceiling (RESULTS.md untouched
##        unless BENCH_WRITE=1); BENCH_OURS_ARGS="--log-level warn" (subsets only); BENCH_RERENDER=1 rewrites from results.json
bench: build
	$(TSX) bench/run.ts

## bench-store-replicas: ValidatePin's latency with --store-replicas 0 and 1 on a master with 2 replicas under Sentinel
##        (Debian's redis-server, redis-sentinel; REPLICAS_BENCH_SECONDS=5 REPLICAS_BENCH_ROUNDS=2 REPLICAS_BENCH_CLIENTS=16)
bench-store-replicas: install
	$(TSX) bench/store-replicas.ts

## bench-store: the embedded store alone: µs per call as it fills and evicts, bytes per entry (STORE_BENCH_ENTRIES=100000)
bench-store: install
	node --expose-gc --import=tsx bench/store.ts

clean:
	rm -rf dist test-output
