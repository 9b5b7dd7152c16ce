package dev.spool.agent.reliability;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The forked host of {@link LogbackJournalKillIT}: Logback configured by the file the test names in
 * {@code -Dlogback.configurationFile} (one appender of the logger {@code kill.logback}, pattern
 * {@link #PATTERN}); two threads log numbered events {@code r<round> t<thread> <seq> ü} through SLF4J
 * (thread 0 with parameters, formatted by Logback; thread 1 a ready text). Every {@link #EXCEPTION_EVERY}th
 * event is a {@code WARN} with an exception of two causes ({@link #failure}), so its stack trace is part of
 * the event's text; every {@link #MDC_EVERY}th carries the MDC value {@code req=q<seq>}. After each logging
 * call returned, the thread stores {@code seq} into its slot of a {@code MAP_SHARED} side file: the
 * kernel's once stored, so after a SIGKILL the side file holds exactly the last acknowledged seq per thread.
 *
 * <p>Usage: {@code LogbackJournalKillHost <acks file> <round> <lines>}: {@code lines} &lt; 0 logs until
 * killed (prints {@code started} once both threads logged 100 events); otherwise each thread logs
 * {@code lines} events, then the host stops Logback's context (as a clean shutdown does), prints
 * {@code done} and exits 0. Halts when its standard input ends (the parent is gone).
 */
public final class LogbackJournalKillHost {
    static final String LOGGER = "kill.logback";
    static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %level %logger [%X{req}]: %msg%n%ex";
    static final int EXCEPTION_EVERY = 50;
    static final int MDC_EVERY = 3;

    private LogbackJournalKillHost() {
    }

    public static void main(String[] args) throws Exception {
        Thread guard = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // wait for the end of the pipe
                }
            } catch (IOException ignored) {
                // same as its end
            }
            Runtime.getRuntime().halt(3);
        }, "orphan-guard");
        guard.setDaemon(true);
        guard.start();
        MappedByteBuffer acks;
        try (FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            acks = ch.map(FileChannel.MapMode.READ_WRITE, 0, 16);
        }
        acks.putLong(0, -1).putLong(8, -1);
        int round = Integer.parseInt(args[1]);
        long lines = Long.parseLong(args[2]);
        Logger log = LoggerFactory.getLogger(LOGGER); // configures Logback: the appender starts (the agent routes its file)
        String framework = System.getProperty("kill.frameworkPackages");
        if (framework != null) { // Spool cannot take an event's caller data exactly: it leaves such events to Logback
            ((ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory()).getFrameworkPackages().add(framework);
        }
        if (Boolean.getBoolean("kill.reconfigure")) {
            reconfigure(); // as Spring Boot does at its start: the first appender stops, a new one opens the same file
        }
        lookAtTheFolder(Path.of(System.getProperty("logback.configurationFile")).getParent());
        CountDownLatch started = new CountDownLatch(2);
        Thread[] threads = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                for (long seq = 0; lines < 0 || seq < lines; seq++) {
                    logOne(log, round, id, seq);
                    acks.putLong(id * 8, seq);               // acknowledged: the logging call returned
                    if (seq % 4 == 0) {
                        LockSupport.parkNanos(20_000);       // a paced host, not a disk filler
                    }
                    if (seq == 100) {
                        started.countDown();
                    }
                }
            }, "logger-" + t);
            threads[t].start();
        }
        if (lines < 0) {
            started.await();
            System.out.println("started");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
        for (Thread t : threads) {
            t.join();
        }
        Object context = LoggerFactory.getILoggerFactory();
        context.getClass().getMethod("stop").invoke(context); // closes the appender, as a normal shutdown would
        System.out.println("done");
    }

    /**
     * {@code -Dkill.listEveryMillis=N}: a third thread lists the log's folder every N ms while the others
     * log, as a log-cleaning task would: Spool removes a journal with nothing to replay before each
     * listing and the next bytes make a new one (issue 33), so kills land on both.
     */
    private static void lookAtTheFolder(Path folder) {
        long every = Long.getLong("kill.listEveryMillis", 0);
        if (every <= 0) {
            return;
        }
        Thread t = new Thread(() -> {
            while (true) {
                try (java.util.stream.Stream<Path> s = java.nio.file.Files.list(folder)) {
                    s.count();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                LockSupport.parkNanos(every * 1_000_000);
            }
        }, "folder-looker");
        t.setDaemon(true);
        t.start();
    }

    /** {@code -Dkill.appKvpEvery=N}: every Nth event (seq % N == 1) carries a key-value pair whose value is of the application's own class. */
    private static final int APP_KVP_EVERY = Integer.getInteger("kill.appKvpEvery", 0);

    private static void logOne(Logger log, int round, int id, long seq) {
        if (seq % MDC_EVERY == 0) {
            MDC.put("req", "q" + seq);
        }
        try {
            if (APP_KVP_EVERY > 0 && seq % APP_KVP_EVERY == 1) { // not printed by the pattern; the journal cannot hold it
                log.atInfo().addKeyValue("order", new Order(seq)).log("r" + round + " t" + id + " " + seq + " ü");
            } else if (seq % EXCEPTION_EVERY == 0) {
                log.warn("r" + round + " t" + id + " " + seq + " ü", failure(round, id, seq));
            } else if (id == 0) {
                log.info("r{} t0 {} ü", round, seq);
            } else {
                log.info("r" + round + " t1 " + seq + " ü");
            }
        } finally {
            MDC.remove("req");
        }
    }

    /** A value of the application's own class (Logback's journal holds plain JDK values only). */
    record Order(long id) {}

    /**
     * The same call sites for every exception (each cause with a frame of its own), so every stack trace has
     * the same frames (the test compares them).
     */
    static Exception failure(int round, int id, long seq) {
        return new IllegalStateException("outer r" + round + " t" + id + " " + seq, middle(seq));
    }

    private static IOException middle(long seq) {
        return new IOException("middle " + seq, root(seq));
    }

    private static IllegalArgumentException root(long seq) {
        return new IllegalArgumentException("root " + seq);
    }

    /** Stops the context's appenders and configures it again from the same file (Spring Boot's, or {@code scan}'s, reinitialisation). */
    private static void reconfigure() throws Exception {
        ch.qos.logback.classic.LoggerContext context = (ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory();
        java.net.URL config = Path.of(System.getProperty("logback.configurationFile")).toUri().toURL();
        context.reset();
        ch.qos.logback.classic.joran.JoranConfigurator joran = new ch.qos.logback.classic.joran.JoranConfigurator();
        joran.setContext(context);
        joran.doConfigure(config);
    }
}
