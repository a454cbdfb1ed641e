#!/usr/bin/env bash
# Installs what scripts/slurm_local.sh (and its test,
# crates/cli/tests/cluster_local.rs) needs to check the cluster scripts on
# this machine: Debian's slurm-wlm (sbatch, slurmctld, slurmd), munge,
# openssh-server (sshd; the client comes with it) and GNU parallel. Nothing
# is configured or started: slurm_local.sh runs the daemons itself, with
# their configuration and state in a temporary directory. (Debian may start
# the packaged services on install where an init system runs; they use the
# system-wide configuration and do not disturb slurm_local.sh.)
set -euo pipefail
if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge openssh-server parallel
