#!/usr/bin/env bash
# KAFKA=1 ./demo.sh runs this: starts a local single-node Kafka broker (Kafka's own server, from
# the jars Maven resolved for the kafka module's tests), runs the sample app with the agent
# shipping its events to it, and shows them arriving with Kafka's console consumer.
#
#   KAFKA=1 ./demo.sh            JOBS, STEPS, THREADS as for ./demo.sh (smaller defaults here)
#
# Everything goes under demo-out/kafka; the broker is stopped at the end (also on Ctrl+C).
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS=${JOBS:-4}
STEPS=${STEPS:-500}
THREADS=${THREADS:-2}
AGENT=agent/target/spool-agent.jar
KAFKA_JAR=kafka/target/spool-kafka.jar
SAMPLE=sample-app/target/spool-sample.jar
CP_FILE=kafka/target/broker.classpath
OUT=demo-out/kafka
TOPIC=spool-demo
die() { printf 'kafka demo: %s\n' "$1" >&2; exit "${2:-1}"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

echo "== [1/4] build: agent, spool-kafka.jar, sample app, the broker's class path"
if [[ ! -f $AGENT || ! -f $KAFKA_JAR || ! -f $SAMPLE || ! -f $CP_FILE ]]; then
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is needed to build" 2
  mvn -B -q -Dstyle.color=never -DskipTests package -pl agent,sample-app,kafka -am 2>&1 | sed $'s/\x1b\\[0m//g' \
    || die "the build failed"
fi
echo "  $AGENT and $KAFKA_JAR (side by side is how you deploy them; here spool.kafka.jar names it)"

echo "== [2/4] start a Kafka broker (KRaft, one node) on loopback"
rm -rf "$OUT" && mkdir -p "$OUT"
PORT=$(free_port); CPORT=$(free_port)
cat > "$OUT/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CPORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CPORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$PWD/$OUT/broker-data
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
CP=$(cat "$CP_FILE")
JOPTS=(-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1)
CLUSTER_ID=$(java "${JOPTS[@]}" -cp "$CP" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)
java "${JOPTS[@]}" -cp "$CP" kafka.tools.StorageTool format -t "$CLUSTER_ID" \
  -c "$OUT/server.properties" > "$OUT/format.log" 2>&1 || die "formatting the broker's storage failed: $OUT/format.log"
java "${JOPTS[@]}" -cp "$CP" kafka.Kafka "$OUT/server.properties" > "$OUT/broker.log" 2>&1 &
BROKER=$!
trap 'kill $BROKER 2>/dev/null; wait $BROKER 2>/dev/null || true' EXIT
# (the broker's class path has no SLF4J provider, so it logs nothing: wait for its port instead)
up=0
for _ in $(seq 1 240); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then up=1; break; fi
  kill -0 $BROKER 2>/dev/null || die "the broker stopped: $OUT/broker.log"
  sleep 0.5
done
(( up )) || die "the broker did not open its port in 2 minutes: $OUT/broker.log"
echo "  broker pid $BROKER at 127.0.0.1:$PORT (log: $OUT/broker.log)"

ARGS="spool.events.methods=dev.spool.sample.Emitter#emit,spool.events.file=$OUT/app/events.spool"
ARGS+=",spool.kafka.bootstrap.servers=127.0.0.1:$PORT,spool.kafka.topic=$TOPIC,spool.kafka.jar=$KAFKA_JAR"
ARGS+=",spool.kafka.close.timeout=30000"
echo "== [3/4] the sample app with -javaagent:$AGENT=$ARGS"
mkdir -p "$OUT/app"
java "-javaagent:$AGENT=$ARGS" -jar "$SAMPLE" --out "$OUT/app" --jobs "$JOBS" --steps "$STEPS" --threads "$THREADS" \
  > "$OUT/app.stdout" 2> "$OUT/app.stderr" || die "the app failed: $OUT/app.stderr"
echo "  $(tail -n 1 "$OUT/app.stdout")"
EVENTS=$(java -jar "$AGENT" cat "$OUT/app/events.spool" | wc -l | tr -d ' ')
echo "  $EVENTS events in $OUT/app/events.spool; checkpoint: $(cat "$OUT/app/events.spool.kafka-$TOPIC.checkpoint")"

echo "== [4/4] what arrived in topic $TOPIC (Kafka's console consumer; first 5 of $EVENTS, key and value)"
java -cp "$CP" org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "127.0.0.1:$PORT" --topic "$TOPIC" \
  --from-beginning --max-messages 5 --formatter-property print.key=true --formatter-property key.separator=' => ' 2>/dev/null
COUNT=$(java -cp "$CP" org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "127.0.0.1:$PORT" --topic "$TOPIC" \
  --from-beginning --timeout-ms 10000 2>/dev/null | wc -l | tr -d ' ')
echo "  $COUNT records in $TOPIC for $EVENTS events in the file"
[[ $COUNT == "$EVENTS" ]] || die "the topic holds $COUNT records, the file $EVENTS events"
echo "  the same events, in file order; the ship command would find nothing left:"
java -Dspool.kafka.jar="$KAFKA_JAR" -jar "$AGENT" ship --bootstrap "127.0.0.1:$PORT" --topic "$TOPIC" "$OUT/app/events.spool" 2>&1 | tail -n 1
