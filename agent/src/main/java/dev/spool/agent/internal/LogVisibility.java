package dev.spool.agent.internal;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The bound on how late a routed log byte reaches its file ({@code spool.events.visibility.max.ms}):
 * one daemon thread ({@code spool-log-visibility}), started with the first routed stream, ticks
 * every half of the bound and asks the sink of each stream that got bytes since the last tick to
 * write them ({@link RoutedStream#requestWrite()}: a flag and an unpark, never a wait). A byte is
 * therefore handed to the file system at most one bound after the handler wrote it, as long as the
 * sink's writer keeps up with the disk (a slower disk: once what is queued before it is written).
 *
 * <p>Thread-safe; the thread never ends (a daemon, idle when no stream is routed).
 */
final class LogVisibility {

    private final long tickNanos;
    private final Supplier<List<RoutedStream>> streams;
    private final AtomicBoolean started = new AtomicBoolean();

    LogVisibility(long maxMillis, Supplier<List<RoutedStream>> streams) {
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, maxMillis)) / 2;
        this.streams = streams;
    }

    /** Starts the ticking thread once. */
    void start() {
        if (started.compareAndSet(false, true)) {
            Thread t = new Thread(this::run, "spool-log-visibility");
            t.setDaemon(true);
            t.start();
        }
    }

    private void run() {
        dev.spool.bridge.Hooks.markSpoolThread();
        while (true) {
            LockSupport.parkNanos(this, tickNanos);
            try {
                for (RoutedStream s : streams.get()) {
                    s.requestWrite();
                }
            } catch (RuntimeException e) {
                AgentLog.once("visibility", "visibility tick failed: " + e);
            }
        }
    }
}
