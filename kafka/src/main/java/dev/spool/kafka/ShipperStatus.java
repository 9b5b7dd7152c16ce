package dev.spool.kafka;

import dev.spool.internal.jfr.SpoolJfr;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * What one {@link FileShipper} shows: its Shipper MBean, the {@code ship} command's progress lines
 * and the {@code dev.spool.KafkaShipping} JFR event.
 *
 * <p>Threads: the shipper thread writes the positions and counters (single writer; the counters
 * are atomic only so that a reader never sees a torn long); JMX threads and the {@code ship}
 * command's main thread read them, and JMX threads set {@link #pause()}/{@link #resume()}. Every
 * field is volatile or atomic, so a reader sees each value the shipper last wrote, never a
 * consistent snapshot of all of them (lag may be off by the records of one step).
 */
final class ShipperStatus implements ShipperMXBean {
    private final Path file;
    private final String topic;
    private final Supplier<KafkaProducer<byte[], byte[]>> producer;
    private final Runnable wake;

    private volatile boolean paused;
    /** The ordinal after the last record sent. */
    volatile long readOrdinal;
    /** Records in the file up to its last whole frame (as ordinals), counted at most 100 ms ago. */
    volatile long fileRecords;
    /** The ordinal after the last record acknowledged, and the file offset after it. */
    volatile long ackedOrdinal;
    volatile long ackedEnd;
    private volatile long lastAckMillis;
    private volatile long lastAckNanos;
    private volatile String lastDeadLetter = "";
    private final AtomicLong deadLetters = new AtomicLong();
    private volatile String lastError = "";
    private final AtomicLong shipped = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    /**
     * @param producer the shipper's producer now (null while it has none)
     * @param wake     unparks the shipper thread (after {@link #resume()})
     */
    ShipperStatus(Path file, String topic, Supplier<KafkaProducer<byte[], byte[]>> producer, Runnable wake) {
        this.file = file;
        this.topic = topic;
        this.producer = producer;
        this.wake = wake;
    }

    /** Shipper thread: an error that does not stop shipping (a skipped record, damage, a checkpoint). */
    void error(String message) {
        errors.incrementAndGet();
        lastError = message;
    }

    /** Shipper thread: a failure after which shipping restarts from the last acknowledged record. */
    void retry(String message) {
        retries.incrementAndGet();
        lastError = message;
    }

    /** Shipper thread: one record acknowledged by Kafka. */
    void shippedOne() {
        shipped.incrementAndGet();
        lastAckMillis = System.currentTimeMillis();
        lastAckNanos = System.nanoTime();
    }

    /** Shipper thread: a record Kafka refused for good, kept in the dead-letter file; {@code what} names it. */
    void deadLettered(String what) {
        deadLetters.incrementAndGet();
        lastDeadLetter = what;
        error(what);
        lastAckNanos = System.nanoTime(); // settled: records are moving
    }

    /** {@link System#nanoTime()} of the last record settled (acknowledged or dead-lettered); 0 before the first. */
    long lastAckNanos() {
        return lastAckNanos;
    }

    /** Shipper thread: the {@code dev.spool.KafkaShipping} JFR event (nothing when Spool's JFR switch is off). */
    void reportToJfr() {
        if (SpoolJfr.enabled()) {
            SpoolJfr.kafkaShipping(file.toString(), topic, getLagRecords(), getLagBytes(), shipped.get(), isConnected());
        }
    }

    @Override public String getPath() { return file.toString(); }
    @Override public String getTopic() { return topic; }
    /** Records in the file not yet acknowledged: sent and waiting, and not read yet (counted at most 100 ms ago). */
    @Override public long getLagRecords() { return Math.max(0, Math.max(fileRecords, readOrdinal) - ackedOrdinal); }
    @Override public long getInFlightRecords() { return Math.max(0, readOrdinal - ackedOrdinal); }
    @Override public long getShipped() { return shipped.get(); }
    @Override public long getRetries() { return retries.get(); }
    @Override public long getErrors() { return errors.get(); }
    @Override public String getLastError() { return lastError; }
    @Override public long getLastAckMillis() { return lastAckMillis; }
    @Override public long getDeadLetters() { return deadLetters.get(); }
    @Override public String getLastDeadLetter() { return lastDeadLetter; }
    @Override public boolean isPaused() { return paused; }

    @Override
    public long getLagBytes() {
        try {
            return Math.max(0, Files.size(file) - ackedEnd);
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public boolean isConnected() {
        KafkaProducer<byte[], byte[]> p = producer.get();
        if (p == null) {
            return false;
        }
        try {
            for (Map.Entry<MetricName, ? extends Metric> e : p.metrics().entrySet()) {
                if (e.getKey().name().equals("connection-count") && e.getKey().group().equals("producer-metrics")) {
                    return ((Number) e.getValue().metricValue()).doubleValue() > 0;
                }
            }
        } catch (RuntimeException e) {
            return false;
        }
        return false;
    }

    @Override
    public void pause() {
        paused = true;
    }

    @Override
    public void resume() {
        paused = false;
        wake.run();
    }
}
