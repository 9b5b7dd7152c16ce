#!/usr/bin/env bash
# Soak: the sample workload with the agent in ONE long-running host JVM for a bounded time
# (outside `mvn verify`), sampling every 2 s: heap used after the last GC (jstat), thread count and
# open file handles (/proc/<pid>), and throughput (growth of the routed JUL log sim.log per second).
# Ends with SIGTERM (a normal exit: Spool flushes) and a verdict per metric: mean of the first vs
# the last third of the samples (warm-up sample dropped).
#   mvn -B -q -DskipTests package && scripts/soak.sh [minutes=3] [out=target/soak]
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES=${1:-3}
OUT=${2:-target/soak}
AGENT=agent/target/spool-agent.jar
APP=sample-app/target/spool-sample.jar
[[ -f $AGENT && -f $APP ]] || { echo "build first: mvn -B -q -DskipTests package" >&2; exit 2; }
rm -rf "$OUT"; mkdir -p "$OUT"
S="$OUT/samples.tsv"
java -javaagent:"$AGENT" -Xmx256m -jar "$APP" --out "$OUT/data" --jobs 32 --steps 10000000 --threads 4 \
    > "$OUT/run.out" 2> "$OUT/run.err" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
echo -e "t_s\theap_used_kb\tthreads\tfds\tlog_bytes_per_s" > "$S"
start=$(date +%s); end=$(( start + MINUTES * 60 )); last=0
while (( $(date +%s) < end )) && kill -0 "$pid" 2>/dev/null; do
  sleep 2
  th=$(awk '/^Threads:/{print $2}' /proc/$pid/status)
  fds=$(ls /proc/$pid/fd | wc -l)
  heap=$(jstat -gc "$pid" | awk 'NR==2{printf "%d", $3+$4+$6+$8}')
  size=$(stat -c %s "$OUT/data/sim.log" 2>/dev/null || echo 0)
  echo -e "$(( $(date +%s) - start ))\t$heap\t$th\t$fds\t$(( (size - last) / 2 ))" >> "$S"
  last=$size
done
kill -TERM "$pid"; wait "$pid" || true
trap - EXIT
echo "exit: $(tail -c 300 "$OUT/run.err" | tr '\n' ' ')"
tail -n +3 "$S" | awk -F'\t' '{h[NR]=$2; t[NR]=$3; f[NR]=$4; r[NR]=$5} END {
  n=NR; k=int(n/3); if (k<1) k=1;
  for (i=1;i<=k;i++){h1+=h[i];t1+=t[i];f1+=f[i];r1+=r[i]}
  for (i=n-k+1;i<=n;i++){h2+=h[i];t2+=t[i];f2+=f[i];r2+=r[i]}
  printf "%d samples; first third -> last third (means): heap used KB %.0f -> %.0f, threads %.1f -> %.1f, fds %.1f -> %.1f, log bytes/s %.0f -> %.0f\n", n, h1/k, h2/k, t1/k, t2/k, f1/k, f2/k, r1/k, r2/k
}'
