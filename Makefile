# Sesame: `make test` on a fresh Debian/Ubuntu machine installs what is missing, builds and runs
# every test. See README.md.
SWIFT ?= swift
FUZZ_SECONDS ?= 30
SWIFT_BUILD_FLAGS ?= -Xswiftc -warnings-as-errors

.PHONY: deps build release run test apple-standins interop-test api-fuzz-test fuzz-api openapi browser-test deploy-test cluster-test cluster reliability-test reliability fuzz bench bench-peers format lint clean

deps:
	@./scripts/deps.sh

build: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release

# Builds in release mode and serves ./data (initialised with a demo tenant on first start) at
# http://localhost:8080. Flags: make run SERVE_FLAGS="--log-level debug".
SERVE_FLAGS ?=
run: deps
	$(SWIFT) build -c release --product sesame
	./.build/release/sesame serve --data ./data --listen 127.0.0.1:8080 --public-url http://localhost:8080 $(SERVE_FLAGS)

test: apple-standins build
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/swift-test.sh
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/interop-test.sh
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/api-fuzz-test.sh
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/browser-test.sh
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/deploy-test.sh
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/cluster-test.sh
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/reliability-test.sh

# Crash and overload (docs/reliability.md): kill -9 under load on SQLite and PostgreSQL, 5x overload,
# 10,000 idle connections and a slowloris, disk full on both stores. `reliability-test` is the short run make test
# makes; `reliability` the long one (20 kills per store, a distributed attacker, a run without shedding).
reliability-test: deps
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/reliability-test.sh

reliability: deps
	RELIABILITY_LONG=1 SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/reliability-test.sh

# Two `sesame serve` processes on one PostgreSQL behind nginx (integration/cluster), as make test runs them.
cluster-test: deps
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/cluster-test.sh

# The same cluster, kept running until Ctrl-C: nginx round-robin in front of two processes.
cluster: deps
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/cluster-test.sh --serve

# Type-checks the Apple adapters (Sources/SesameClient/Apple) on Linux against hand-written stand-ins
# for AuthenticationServices and Security, in .build/apple-standins; a few seconds, no swift build.
apple-standins:
	SWIFT="$(SWIFT)" ./scripts/apple-standins-check.sh

# An independent Python client (cryptography, cbor2) acts as an Android app against sesame serve,
# after enabling the app through the Management API.
interop-test: deps
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/interop-test.sh

# schemathesis (PyPI, pinned, venv in .build/api-fuzz-venv) over every route of a live sesame serve,
# from its own /openapi.json, with and without a Management API token (docs/openapi.md). make test
# runs it with 5 examples per operation; `make fuzz-api N` runs it with N (default 100) and a new seed.
api-fuzz-test: deps
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/api-fuzz-test.sh

# Writes Sources/SesameHTTP/OpenAPI/openapi.json again from the routes' body tables (docs/openapi.md);
# swift test fails until the committed document is the generated one.
openapi:
	SESAME_WRITE_OPENAPI=1 $(SWIFT) test $(SWIFT_BUILD_FLAGS) --filter OpenAPIGenerationTests

FUZZ_API_EXAMPLES := $(or $(word 2,$(MAKECMDGOALS)),100)
fuzz-api: deps
	API_FUZZ_SEED="$${API_FUZZ_SEED:-$$(date +%s)}" SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" \
		./scripts/api-fuzz-test.sh $(FUZZ_API_EXAMPLES)

# `make fuzz-api 500`: the number is fuzz-api's argument, not a target of its own.
ifeq (fuzz-api,$(firstword $(MAKECMDGOALS)))
$(word 2,$(MAKECMDGOALS)):
	@:
endif

# Real Chromium (Debian's chromium + chromium-driver, Selenium in a venv) with a CDP virtual
# authenticator: credentials it makes pass `sesame verify`/`inspect`, and the landing page signs up
# and logs in against `sesame serve` with and without allowCredentials.
browser-test: deps
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/browser-test.sh

# Debian's nginx with deploy/nginx/*.conf (docs/deployment.md) in front of sesame serve, on loopback.
deploy-test: deps
	SWIFT="$(SWIFT)" SWIFT_BUILD_FLAGS="$(SWIFT_BUILD_FLAGS)" ./scripts/deploy-test.sh

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) ./scripts/fuzz.sh

BENCH_VENV := .build/bench-venv

bench: deps
	$(SWIFT) build -c release --product sesame-bench
	@test -x $(BENCH_VENV)/bin/python || python3 -m venv $(BENCH_VENV)
	@$(BENCH_VENV)/bin/python -c "import webauthn" 2>/dev/null || $(BENCH_VENV)/bin/pip install -q "webauthn==3.0.1"
	SESAME_BENCH_PYTHON=$(BENCH_VENV)/bin/python SESAME_BENCH_PY_SCRIPT=Benchmarks/py_webauthn_bench.py \
		./.build/release/sesame-bench
	$(SWIFT) build -c release --product sesame-bench-limits
	./.build/release/sesame-bench-limits
	$(SWIFT) build -c release --product sesame-bench-stats
	./.build/release/sesame-bench-stats
	./scripts/load-bench.sh
	LOADBENCH_SERVER_CONFIG=default LOADBENCH_LOGINS=20000 LOADBENCH_REFRESHES=20000 LOADBENCH_PASSWORD_LOGINS=0 \
		./scripts/load-bench.sh
	LOADBENCH_POSTGRES=1 LOADBENCH_LOGINS=20000 LOADBENCH_REFRESHES=20000 ./scripts/load-bench.sh

# Peers in the same run: py_webauthn on the same assertions, and django-allauth's headless passkey
# login under gunicorn (one worker) against Sesame's, same core, same load generator
# (scripts/peer-bench.sh; pins in Benchmarks/peers/allauth/requirements.txt, venv .build/bench-venv).
bench-peers: deps
	SWIFT="$(SWIFT)" ./scripts/peer-bench.sh

format:
	swift-format format -i -r --configuration .swift-format Sources Tests Benchmarks Fuzz/Sources 2>/dev/null || swift-format format -i -r --configuration .swift-format Sources Tests Benchmarks

lint:
	swift-format lint -r --configuration .swift-format Sources Tests Benchmarks

clean:
	rm -rf .build Fuzz/.build
