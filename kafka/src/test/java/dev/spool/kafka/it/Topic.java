package dev.spool.kafka.it;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads a topic from its beginning with a real consumer (no group), all partitions. */
public final class Topic {
    private Topic() {
    }

    /** One consumed record, as text. */
    public record Rec(int partition, long offset, String key, String value, Map<String, String> headers) {
        public long ordinal() {
            return Long.parseLong(key.substring(key.lastIndexOf(':') + 1));
        }

        public String stream() {
            return key.substring(0, key.lastIndexOf(':'));
        }
    }

    /**
     * Every record of {@code topic}, waiting (bounded, 120 s) until there are at least
     * {@code atLeast} and then until none came for a second (late duplicates are counted too).
     */
    public static List<Rec> read(String bootstrap, String topic, int atLeast) throws InterruptedException {
        return read(bootstrap, topic, atLeast, TimeUnit.SECONDS.toNanos(1));
    }

    /** Every record of {@code topic}, once none came for five seconds (bounded, 120 s; the topic must exist or appear). */
    public static List<Rec> readQuiet(String bootstrap, String topic) throws InterruptedException {
        return read(bootstrap, topic, 0, TimeUnit.SECONDS.toNanos(5));
    }

    /** The number of records in {@code topic} now (sum of its partitions' end offsets; 0 when it does not exist yet). */
    static long size(String bootstrap, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()))) {
            List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(10));
            if (infos == null || infos.isEmpty()) {
                return 0;
            }
            List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(topic, i.partition())).collect(Collectors.toList());
            return c.endOffsets(parts, Duration.ofSeconds(10)).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Returns as soon as {@code topic} holds at least {@code atLeast} records (bounded, 120 s). */
    public static void awaitCount(String bootstrap, String topic, int atLeast) throws InterruptedException {
        if (read(bootstrap, topic, atLeast, 0).size() < atLeast) {
            throw new AssertionError("fewer than " + atLeast + " records in " + topic + " after 120 s");
        }
    }

    private static List<Rec> read(String bootstrap, String topic, int atLeast, long quietNanos) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        List<Rec> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"))) {
            List<TopicPartition> parts = new ArrayList<>();
            while (parts.isEmpty()) {
                List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(10));
                if (infos != null) {
                    infos.forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
                }
                if (parts.isEmpty()) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("topic " + topic + " never appeared");
                    }
                    Thread.sleep(200);
                }
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            long quietSince = System.nanoTime();
            while (System.nanoTime() < deadline) {
                int before = out.size();
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    Map<String, String> h = new java.util.LinkedHashMap<>();
                    r.headers().forEach(x -> h.put(x.key(), new String(x.value(), StandardCharsets.UTF_8)));
                    out.add(new Rec(r.partition(), r.offset(), r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8),
                            new String(r.value(), StandardCharsets.UTF_8), h));
                }
                if (out.size() != before) {
                    quietSince = System.nanoTime();
                }
                if (out.size() >= atLeast && System.nanoTime() - quietSince >= quietNanos) {
                    break;
                }
            }
        }
        return out;
    }

    /** The distinct ordinals, in first-seen order, checked to be exactly 0..n-1. */
    static List<Long> distinctOrdinals(List<Rec> recs) {
        return recs.stream().map(Rec::ordinal).distinct().collect(Collectors.toList());
    }
}
