package dev.spool.agent.kafka;

import dev.spool.bridge.Hooks;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;

/**
 * Starts shipping the structured event file to Kafka when {@code spool.kafka.bootstrap.servers}
 * is set: on a Spool daemon thread (never premain's), once touching the platform MBean server is
 * safe (the Kafka client registers MBeans), it opens {@code spool-kafka.jar} ({@link KafkaJar})
 * and hands over to {@code dev.spool.kafka.AgentShipping}, which runs the shipper thread and its
 * MBean. Its shutdown hook (added here, at once, so a short-lived host ships too) starts the
 * shipper right away if it has not started yet, then lets it catch up for at most
 * {@code spool.kafka.close.timeout} ms. Any failure is one {@code [spool]} line through
 * {@code reporter}; the application runs on.
 */
public final class KafkaShipping {
    static final String ENTRY = "dev.spool.kafka.AgentShipping";

    /** Waits until the platform MBean server may be touched. */
    @FunctionalInterface
    public interface Await {
        void await() throws InterruptedException;
    }

    private final Map<String, String> settings;
    private final Path eventsFile;
    private final Runnable flushEvents;
    private final boolean jmx;
    private final BiConsumer<String, String> reporter;
    private final Await safe;
    private final ThreadFactory spoolThreads;
    private volatile boolean exiting;
    private volatile LongConsumer exit;

    private KafkaShipping(Map<String, String> settings, Path eventsFile, Runnable flushEvents, boolean jmx,
                          BiConsumer<String, String> reporter, Await safe) {
        this.settings = settings;
        this.eventsFile = eventsFile;
        this.flushEvents = flushEvents;
        this.jmx = jmx;
        this.reporter = reporter;
        this.safe = safe;
        this.spoolThreads = r -> {
            Thread t = new Thread(() -> {
                Hooks.markSpoolThread(); // no hook ever captures what the shipper does
                r.run();
            });
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * @param settings {@code spool.kafka.*} without the prefix (bootstrap.servers present)
     * @param reporter (problem key, message), reported once per key
     */
    public static void start(Map<String, String> settings, Path eventsFile, Runnable flushEvents, boolean jmx,
                             BiConsumer<String, String> reporter, Await safe) {
        KafkaShipping k = new KafkaShipping(settings, eventsFile, flushEvents, jmx, reporter, safe);
        Thread starter = k.spoolThreads.newThread(k::startAfterWait);
        starter.setName("spool-kafka-start");
        starter.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> k.atExit(starter), "spool-kafka-exit"));
    }

    private void startAfterWait() {
        try {
            safe.await();
        } catch (InterruptedException e) {
            if (!exiting) {
                return;
            }
        }
        try {
            File jar = KafkaJar.locate(settings.get("jar"));
            ClassLoader loader = KafkaJar.open(jar);
            Thread.currentThread().setContextClassLoader(loader);
            exit = (LongConsumer) loader.loadClass(ENTRY)
                    .getMethod("start", Map.class, Path.class, Runnable.class, boolean.class, BiConsumer.class,
                            ThreadFactory.class)
                    .invoke(null, settings, eventsFile, flushEvents, jmx, reporter, spoolThreads);
        } catch (InvocationTargetException e) {
            reporter.accept("kafka-start", "Kafka shipping is off: " + e.getCause().getMessage());
        } catch (Throwable e) {
            reporter.accept("kafka-start", "Kafka shipping is off: " + e);
        }
    }

    /** Bounded by {@code spool.kafka.close.timeout} (plus about a second for the producer to close). */
    private void atExit(Thread starter) {
        long timeout = Long.parseLong(settings.getOrDefault("close.timeout", "5000"));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        exiting = true;
        starter.interrupt(); // skip the wait for JMX safety: the host is leaving
        try {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                starter.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LongConsumer e = exit;
        if (e != null) {
            e.accept(deadline);
        }
    }
}
