package dev.spool.agent.host;

import static dev.spool.agent.host.LogbackDiffHost.call;
import static dev.spool.agent.host.LogbackDiffHost.create;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Test host for the journal of a Logback appender beside its log (issue 33):
 * {@code LogbackIdleJournalHost <dir> [echo|pattern]}. A {@code FileAppender} writes {@code <dir>/logs/app.log}:
 * with Logback's {@code EchoEncoder} ({@code echo}, the default: encoded on the caller's thread, its bytes
 * journaled) or a {@code PatternLayoutEncoder} behind a logger ({@code pattern}: Spool defers it, its captured
 * events journaled); between
 * batches of events the host looks at its folder as an application would. Prints one line per step,
 * {@code <step> <what it saw>}: whether the journal exists, what a listing shows (NIO, then
 * {@code File.listFiles}), and at the end whether the folder could be removed after the appender
 * stopped and the log was deleted, and whether another appender's folder could be removed right after
 * it logged (the appender still open). Built reflectively (the test sources need no Logback).
 */
public final class LogbackIdleJournalHost {

    private LogbackIdleJournalHost() {
    }

    public static void main(String[] args) throws Exception {
        Path folder = Files.createDirectories(Path.of(args[0]).resolve("logs"));
        Path file = folder.resolve("app.log");
        Path journal = folder.resolve("app.log.spool-logback-journal");
        Object context = Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
        pattern = args.length > 1 && args[1].equals("pattern");
        Object appender = appender(context, "ECHO", file);
        append(appender, "a", 10);
        System.out.println("logged " + Files.exists(journal));
        System.out.println("nio-listing " + nioListing(folder));
        System.out.println("after-listing " + Files.exists(journal));
        append(appender, "b", 10);
        System.out.println("logged-again " + Files.exists(journal));
        String[] names = folder.toFile().list();
        Arrays.sort(names);
        System.out.println("file-listing " + String.join(",", names));
        append(appender, "c", 5);
        System.out.println("listing-while-locked " + listingWhileLocked(appender, folder));
        call(appender, "stop");
        List<String> lines = Files.readAllLines(file);
        System.out.println("lines " + lines.size());
        Files.delete(file);
        System.out.println("folder-removed " + new File(folder.toString()).delete());
        Path live = Files.createDirectories(Path.of(args[0]).resolve("live"));
        Object second = appender(context, "LIVE", live.resolve("app.log"));
        append(second, "d", 5); // just logged, not yet in the file under the agent: the delete writes it first
        Files.delete(live.resolve("app.log"));
        System.out.println("live-folder-removed " + new File(live.toString()).delete());
        call(second, "stop");
    }

    /** Whether the appenders encode with a pattern, behind a logger each (Spool defers them). */
    private static boolean pattern;
    /** The logger in front of each appender ({@code pattern}), by appender. */
    private static final java.util.Map<Object, Object> LOGGERS = new java.util.IdentityHashMap<>();

    /**
     * A started {@code FileAppender} of {@code file}: with Logback's {@code EchoEncoder} (Spool does not defer it),
     * or ({@link #pattern}) with a {@code PatternLayoutEncoder}, the only appender of its own logger.
     */
    private static Object appender(Object context, String name, Path file) throws Exception {
        Object encoder = create(pattern ? "ch.qos.logback.classic.encoder.PatternLayoutEncoder"
                : "ch.qos.logback.core.encoder.EchoEncoder");
        call(encoder, "setContext", context);
        if (pattern) {
            call(encoder, "setPattern", "%level %logger %msg%n");
        }
        call(encoder, "start");
        Object appender = create("ch.qos.logback.core.FileAppender");
        call(appender, "setContext", context);
        call(appender, "setName", name);
        call(appender, "setFile", file.toString());
        call(appender, "setEncoder", encoder);
        call(appender, "start");
        if (pattern) {
            Object logger = call(context, "getLogger", "idle." + name);
            call(logger, "setAdditive", false);
            call(logger, "addAppender", appender);
            LOGGERS.put(appender, logger);
        }
        return appender;
    }

    /**
     * A listing of {@code folder} while another thread holds the appender's stream lock (as one writing a
     * long event would): the listing must return (Spool waits for that lock a bounded time only), and the
     * journal it could not put away is still there.
     */
    private static String listingWhileLocked(Object appender, Path folder) throws Exception {
        java.util.concurrent.locks.ReentrantLock lock = streamLock(appender);
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Thread holder = new Thread(() -> {
            lock.lock();
            try {
                held.countDown();
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }, "lock-holder");
        holder.start();
        held.await();
        try {
            return nioListing(folder);
        } finally {
            done.countDown();
            holder.join();
        }
    }

    /** Logback's lock around the appender's stream (the first {@code ReentrantLock} field up its classes). */
    private static java.util.concurrent.locks.ReentrantLock streamLock(Object appender) throws Exception {
        for (Class<?> c = appender.getClass(); c != null; c = c.getSuperclass()) {
            for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                if (f.getType() == java.util.concurrent.locks.ReentrantLock.class) {
                    f.setAccessible(true);
                    return (java.util.concurrent.locks.ReentrantLock) f.get(appender);
                }
            }
        }
        throw new IllegalStateException("no stream lock in " + appender.getClass());
    }

    private static void append(Object appender, String prefix, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            if (pattern) {
                call(LOGGERS.get(appender), "info", prefix + i);
            } else {
                call(appender, "doAppend", prefix + i);
            }
        }
    }

    private static String nioListing(Path folder) throws Exception {
        try (Stream<Path> s = Files.list(folder)) {
            return String.join(",", s.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }
}
