#!/bin/bash
# The cross-process tests N runs in a row without retry (issue 29): WorldCluster, AllianceCluster,
# SessionsCluster, WorldResync, WorldRedisRestart and the auth tokens/revocation tests, in a fresh
# vitest process each run (so every run starts its servers and subscribes again). Stops at the
# first failure and keeps its log. Uses TEST_POSTGRES_URL / TEST_REDIS_URL like every test.
#   server/tools/src/bench/clusterLoop.sh [runs, default 50]
# Lanes: several loops at once, each with TEST_REDIS_URL on a redis-server of its own (the files
# use fixed database indexes), count together; more lanes also load the machine, which makes
# races likelier (docs/performance.md, "Cross-process tests").
# Give it a machine where a child server can start: under a load of 25-30 on 2 cores at nice 19
# the servers' first Redis commands hit the 1 s command time-out and the start fails
# (docs/performance.md, "Stop 33").
RUNS=${1:-50}
cd "$(dirname "$0")/../../../.." || exit 1
loopStart=$(date +%s)
for i in $(seq 1 "$RUNS"); do
  start=$(date +%s)
  log=$(mktemp /tmp/cluster-run-XXXX.log)
  if npx vitest run --project server --retry 0 --maxWorkers 1 server/src/rooms/WorldCluster.test.ts server/src/rooms/AllianceCluster.test.ts \
      server/src/rooms/SessionsCluster.test.ts server/src/rooms/WorldResync.test.ts server/src/rooms/WorldRedisRestart.test.ts \
      server/src/auth/tokens.test.ts > "$log" 2>&1; then
    echo "run $i passed in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg); vitest: $(grep -a 'Duration' "$log" | sed 's/\x1b\[[0-9;]*m//g' | tr -s ' ')"
    rm -f "$log"
  else
    echo "run $i FAILED in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg): $log"
    exit 1
  fi
done
echo "$RUNS of $RUNS passed in a row in $(( $(date +%s) - loopStart )) s, load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
