# The two commands a new user needs: `make run` and `make test`.
# Everything else is here for contributors and CI.

# The Node.js everything here runs on: 24 (LTS). When the `node` on PATH is older (or absent, with npm
# present), make brings this version from the npm registry into .node/ and puts it first on PATH for every
# recipe; nothing outside the checkout changes. .node/bin/node names the Node.js make uses, for the systemd
# unit (deploy/pin-service.service). `make USE_NODE=/path/to/node …` uses that one instead.
NODE_VERSION := 24.21.0
NODE_MAJOR := $(firstword $(subst ., ,$(NODE_VERSION)))
USE_NODE ?= $(shell command -v node 2>/dev/null)
NODE_FOUND := $(if $(USE_NODE),$(shell '$(USE_NODE)' -p 'process.versions.node' 2>/dev/null),none)
NODE_GOOD := $(if $(USE_NODE),$(shell '$(USE_NODE)' -e 'process.exit(+process.versions.node.split(".")[0] >= $(NODE_MAJOR) ? 0 : 1)' 2>/dev/null && echo yes),)
ifeq ($(NODE_GOOD),yes)
NODE_BIN := $(dir $(realpath $(USE_NODE)))
else
NODE_PACKAGE := node-$(shell uname -s | tr A-Z a-z)-$(subst aarch64,arm64,$(subst x86_64,x64,$(shell uname -m)))
NODE_BIN := $(CURDIR)/.node/node_modules/$(NODE_PACKAGE)/bin/
endif
export PATH := $(NODE_BIN):$(PATH)

TSX := node --import=tsx
SYSTEM_TESTS := $(wildcard test/system/*.test.ts)

.PHONY: install node generate check-generated build run test test-all typecheck lint clean fuzz soak

## node: the Node.js of NODE_VERSION's major line, from PATH or brought into .node/ (see the top of this file)
node: .node/bin/node

.node/bin/node: Makefile
ifneq ($(NODE_GOOD),yes)
	@if [ "$$('$(NODE_BIN)node' --version 2>/dev/null)" != "v$(NODE_VERSION)" ]; then \
	  echo "make: Node.js $(NODE_FOUND) is on PATH; this service runs on Node.js $(NODE_MAJOR)." \
	    "Installing $(NODE_PACKAGE)@$(NODE_VERSION) from the npm registry into .node/ (used by make only)."; \
	  rm -rf .node && mkdir -p .node && \
	  npm install --prefix .node --no-save --no-package-lock --no-audit --no-fund '$(NODE_PACKAGE)@$(NODE_VERSION)' >/dev/null || { \
	    echo "make: could not install $(NODE_PACKAGE)@$(NODE_VERSION) from the npm registry."; \
	    echo "      Install Node.js $(NODE_MAJOR) (https://nodejs.org/) and run make again, or name one: make USE_NODE=/path/to/node …"; \
	    exit 1; }; \
	fi
endif
	@mkdir -p .node/bin
	@[ "$$(readlink .node/bin/node)" = '$(NODE_BIN)node' ] || ln -sfn '$(NODE_BIN)node' .node/bin/node
	@touch -h .node/bin/node
	@echo "make: Node.js $$(.node/bin/node --version) ($(NODE_BIN)node)"

node_modules/.installed: package.json src/runtime/package.json codegen/package.json package-lock.json | .node/bin/node
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.installed

## generate: schema/ -> generated/ (libxml2-wasm, ts-morph, handlebars); src/service/config.ts -> docs/operations.md's settings table
generate: install
	npm run generate
	npm run generate:settings

## check-generated: fail when generated/ (or the settings table of docs/operations.md) differs from what codegen produces
check-generated: generate
	git diff --exit-code --stat -- generated/ docs/operations.md
	@test -z "$$(git status --porcelain -- generated/)" || { echo "generated/ has files codegen did not write"; git status --porcelain -- generated/; exit 1; }

## build: as `npm run build` builds it: the runtime package (src/runtime/dist/), the codegen package (codegen/dist/),
##        then the service's dist/ (the compiled code and the help pages' templates)
build: install
	npm run build

## run: the service on port 8080 (settings: ARGS="--port 9000" or PIN_* variables)
run: build
	node dist/src/service/main.js $(ARGS)

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
	$(TSX) test/service/fuzz/main.ts

## soak: the built service under steady mixed load for 9 minutes (SOAK_SECONDS=540 SOAK_WARMUP=180 SOAK_RATE=300
##       SOAK_SECRETS=10000 SOAK_RESULTS=bench/RESULTS.md, - for none); figures into bench/RESULTS.md
soak: build
	$(TSX) bench/soak.ts

.PHONY: bench bench-store bench-store-replicas bench-state-file
## bench: ours vs ours (before: this build on Node.js 20, or BENCH_BEFORE=<revision>) vs the npm soap server vs a bare
##        Koa ceiling, autocannon on loopback, interleaved rounds, then ours under perf (~30 min); writes bench/RESULTS.md
##        and results.json (raw, ignored by git). BENCH_ROUNDS=3 BENCH_CONNECTIONS=50 BENCH_WARMUP=5 BENCH_DURATION=8 BENCH_FRESH_DURATION=60
##        BENCH_BEFORE=<revision> (empty: no before row) BENCH_BEFORE_NODE=<a Node.js 20>; BENCH_PROFILES=0 skips perf
##        (Debian's linux-perf); an A/B (docs/performance.md): BENCH_OURS=<revision> BENCH_BEFORE=<the one before>
##        BENCH_SCENARIOS=soap11-validate,... BENCH_SERVERS=ours,before (RESULTS.md untouched unless BENCH_WRITE=1)
bench: build
	$(TSX) bench/run.ts

## bench-store-replicas: ValidatePin's latency with --store-replicas 0 and 1 on a master with 2 replicas under Sentinel
##        (Debian's redis-server, redis-sentinel; REPLICAS_BENCH_SECONDS=5 REPLICAS_BENCH_ROUNDS=2 REPLICAS_BENCH_CLIENTS=16)
bench-store-replicas: install
	$(TSX) bench/store-replicas.ts

## bench-state-file: keeping the embedded store in its state directory: µs per call against volatile, disk use, start-up time (STORE_BENCH_ENTRIES=100000)
bench-state-file: install
	$(TSX) bench/store.ts kept

## bench-store: the embedded store alone: µs per call as it fills and evicts, bytes per entry (STORE_BENCH_ENTRIES=100000)
bench-store: install
	node --expose-gc --import=tsx bench/store.ts

clean:
	rm -rf dist src/runtime/dist codegen/dist test-output
