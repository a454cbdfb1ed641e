# Shortcuts for the usual cargo commands. `make ci` runs what CI runs.

CARGO ?= cargo

.PHONY: build test native bench ratio crosscheck ci

# Optimised build of the `varia` binary (target/release/varia).
build:
	$(CARGO) build --release

# The whole test suite (also builds the benches package).
test:
	$(CARGO) test --workspace

# Build tuned for this machine's CPU. .cargo/config.toml already asks for
# target-cpu=native; this target states it explicitly, overriding any
# RUSTFLAGS in the environment.
native:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release

# Criterion benchmarks (varia against shakmaty).
bench:
	$(CARGO) bench -p varia-benches

# Single-thread perft speed ratio varia/shakmaty against the targets
# (interleaved rounds, medians). `make ratio RATIO_ARGS=--quick` for a short run.
ratio:
	$(CARGO) run --release -p varia-benches --bin perft_ratio -- $(RATIO_ARGS)

# Compare move generation with Fairy-Stockfish (pyffish): legal moves and
# game-over verdicts on 10,000 random positions per game, perft on 100 roots.
# Needs `pip install -r scripts/requirements.txt`. Pass options with
# CROSSCHECK_ARGS, e.g. `make crosscheck CROSSCHECK_ARGS="--variant atomic"`.
crosscheck:
	$(CARGO) build --release -p varia
	python3 scripts/crosscheck.py $(CROSSCHECK_ARGS)

# Formatting, lints and tests, as CI runs them.
ci:
	bash .ci/run
