# Shortcuts for the usual cargo commands. `make ci` runs what CI runs.

CARGO ?= cargo

.PHONY: build test native bench ratio crosscheck ci bench-signature perft-tables sprt cluster-check

# Optimised build of the `varia` binary (target/release/varia), portable to
# every x86-64-v2 CPU (.cargo/config.toml); PEXT and AVX2 are chosen at run time.
build:
	$(CARGO) build --release

# The whole test suite (also builds the benches package).
test:
	$(CARGO) test --workspace

# Opt-in build tuned for this machine's CPU (target-cpu=native, replacing the
# portable x86-64-v2 of .cargo/config.toml and any RUSTFLAGS in the
# environment). The binary may not run on older CPUs.
native:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release

# Criterion benchmarks (varia against shakmaty).
bench:
	$(CARGO) bench -p varia-benches

# Single-thread perft speed ratio varia/shakmaty against the targets
# (interleaved rounds, medians). `make ratio RATIO_ARGS=--quick` for a short run.
ratio:
	$(CARGO) run --release -p varia-benches --bin perft_ratio -- $(RATIO_ARGS)

# Rewrite data/bench.txt, the search's node-count signature that
# crates/cli/tests/cli_bench.rs checks. Run it when a change to the search or
# evaluation is intended, and commit the new file in the same commit.
bench-signature:
	$(CARGO) run --release -p varia -- bench --signature > data/bench.txt.tmp
	mv data/bench.txt.tmp data/bench.txt

# Compare move generation with Fairy-Stockfish (pyffish): legal moves and
# game-over verdicts on 10,000 random positions per game, perft on 100 roots.
# Needs `pip install -r scripts/requirements.txt`. Pass options with
# CROSSCHECK_ARGS, e.g. `make crosscheck CROSSCHECK_ARGS="--variant atomic"`.
crosscheck:
	$(CARGO) build --release -p varia
	python3 scripts/crosscheck.py $(CROSSCHECK_ARGS)

# Regenerate data/perft/tables/: detailed perft counts of every start position
# (as deep as ~5 minutes per game on 2 cores), cross-checked against the
# reference data, shakmaty and second runs; rendered in
# data/perft/tables/README.md. Takes an hour or more; runs niced. Options via
# PERFT_TABLES_ARGS, e.g. PERFT_TABLES_ARGS="--variants chess --budget 60".
perft-tables:
	$(CARGO) build --release -p varia
	$(CARGO) build --release -p varia-benches --example shakmaty_perft
	nice -n 10 python3 scripts/perft_tables.py $(PERFT_TABLES_ARGS)

# Formatting, lints and tests, as CI runs them.
ci:
	bash .ci/run

# Test a change to playing strength by SPRT against a base commit, both
# engines over UCI, one row per game appended to data/sprt/log.csv
# (scripts/sprt.sh -h for the options), e.g.
# make sprt SPRT_ARGS='-b HEAD~1 -v suicide -c "check extension"'
sprt:
	bash scripts/sprt.sh $(SPRT_ARGS)

# Check the cluster scripts end to end on this machine: a one-node Slurm
# (munged, slurmctld, slurmd) and an sshd on 127.0.0.1, started in a
# temporary directory and stopped at the end, run perft_slurm.sh,
# match_slurm.sh, datagen_slurm.sh (sbatch --array) and perft_parallel.sh
# (ssh); each merge is compared with a single run. Needs scripts/setup_cluster_tools.sh and root.
cluster-check:
	$(CARGO) build --release -p varia
	bash scripts/slurm_local.sh target/release/varia
