package dev.spool.agent.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.ErrorManager;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.XMLFormatter;

/**
 * Test host for JUL records whose formatting runs the host's own code, or whose bytes or level
 * are at an edge (issue 30, items 1–4). Usage: {@code JulHostCodeHost <scenario> <dir>}; every
 * scenario writes its files into {@code dir} and prints what the host observes, so plain and agent
 * runs compare by stdout and by file bytes:
 * <ul>
 *   <li>{@code deadlock}: a thread holds its own lock, logs an exception whose {@code getMessage()}
 *       takes that lock, then calls {@code handler.flush()}; prints {@code returned} or {@code hung}
 *       (after a bounded join, then halts: a hung thread cannot be ended);
 *   <li>{@code maxed}: a handler whose level's value equals {@code OFF}'s, records at {@code OFF}'s value;
 *   <li>{@code surrogate}: in UTF-8, ISO-8859-1 and US-ASCII, a record ending in a high surrogate and
 *       the next beginning with its low one (format {@code %5$s}), the first record of its file;
 *   <li>{@code nested}: records logged from an exception's {@code getMessage()}/{@code toString()} and
 *       from a parameter's {@code toString()}, with formats that print them and formats that do not,
 *       and one whose {@code getMessage()} logs and then throws (the handler's {@code ErrorManager}
 *       prints what it is told).
 * </ul>
 */
public final class JulHostCodeHost {

    private JulHostCodeHost() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "deadlock" -> deadlock(dir);
            case "maxed" -> maxed(dir);
            case "surrogate" -> surrogate(dir);
            case "nested" -> nested(dir);
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("done");
    }

    /** {@code handler} with {@code formatter} and an {@code ErrorManager} that prints, on a logger of its own. */
    private static Logger logger(String name, FileHandler handler, Formatter formatter) {
        handler.setFormatter(formatter);
        handler.setErrorManager(new ErrorManager() {
            @Override
            public synchronized void error(String msg, Exception ex, int code) {
                System.out.println("error manager " + name + " code " + code + ": " + ex);
            }
        });
        Logger logger = Logger.getLogger("host." + name);
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.ALL);
        logger.addHandler(handler);
        return logger;
    }

    private static SimpleFormatter simple(String format) {
        System.setProperty("java.util.logging.SimpleFormatter.format", format);
        return new SimpleFormatter(); // reads the property now
    }

    private static FileHandler file(Path dir, String name) throws IOException {
        FileHandler handler = new FileHandler(dir.resolve(name).toString(), false);
        handler.setEncoding("UTF-8");
        return handler;
    }

    // ---- item 1 ----

    /** An exception whose message needs the host's lock. */
    static final class LockedMessageException extends IllegalStateException {
        private final transient ReentrantLock lock;
        private final transient CountDownLatch asked;

        LockedMessageException(ReentrantLock lock, CountDownLatch asked) {
            super("locked");
            this.lock = lock;
            this.asked = asked;
        }

        @Override
        public String getMessage() {
            asked.countDown();
            lock.lock();
            try {
                return "message read under the host's lock";
            } finally {
                lock.unlock();
            }
        }
    }

    private static void deadlock(Path dir) throws Exception {
        FileHandler handler = file(dir, "deadlock.log");
        Logger logger = logger("deadlock", handler, simple("%2$s %4$s: %5$s%6$s%n")); // the default's, without the date
        ReentrantLock lock = new ReentrantLock();
        CountDownLatch asked = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            lock.lock();
            try {
                logger.log(Level.SEVERE, "failed", new LockedMessageException(lock, asked));
                // plain JUL asks the message on this thread, during log(); a formatter on another thread asks it
                // there (and then waits for this lock): wait until someone asked, bounded
                asked.await(10, TimeUnit.SECONDS);
                handler.flush();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }, "holder");
        t.start();
        t.join(15_000);
        if (t.isAlive()) {
            System.out.println("hung");
            System.out.flush();
            Runtime.getRuntime().halt(3); // the hung threads cannot be ended
        }
        System.out.println("returned");
        handler.close();
    }

    // ---- item 4 ----

    private static final class Maxed extends Level {
        Maxed() {
            super("MAXED", Integer.MAX_VALUE);
        }
    }

    private static void maxed(Path dir) throws Exception {
        FileHandler handler = file(dir, "maxed.log");
        Level maxed = new Maxed();
        Logger logger = logger("maxed", handler, simple("%4$s %5$s%n"));
        handler.setLevel(maxed);
        logger.log(Level.OFF, "at OFF");
        logger.log(maxed, "at MAXED");
        logger.log(Level.SEVERE, "at SEVERE");
        handler.setLevel(Level.INFO);
        logger.log(Level.INFO, "at INFO after the level is lowered");
        handler.close();
    }

    // ---- item 2 ----

    private static void surrogate(Path dir) throws Exception {
        for (String encoding : new String[] {"UTF-8", "ISO-8859-1", "US-ASCII"}) {
            FileHandler handler = new FileHandler(dir.resolve("split-" + encoding + ".log").toString(), false);
            handler.setEncoding(encoding);
            Logger logger = logger("split-" + encoding, handler, simple("%5$s"));
            logger.info("a\ud83d"); // the file's first record ends in a high surrogate
            logger.info("\ude00b"); // the next begins with its low one
            logger.info("c\ud83d");
            logger.info("\ude00d");
            logger.info("e");
            handler.close();
            // with a size limit: the counted bytes decide where the file rotates (every generation kept)
            FileHandler limited = new FileHandler(dir.resolve("limit-" + encoding + "-%g.log").toString(), 16, 10, false);
            limited.setEncoding(encoding);
            Logger l2 = logger("limit-" + encoding, limited, simple("%5$s"));
            for (int i = 0; i < 8; i++) {
                l2.info("x\ud83d");
                l2.info("\ude00y");
            }
            limited.close();
        }
    }

    // ---- item 3 ----

    /** An exception whose message logs a record first (to the same logger). */
    static final class LoggingException extends IllegalStateException {
        private final transient Logger logger;
        private final boolean thenThrow;

        LoggingException(Logger logger, String message, boolean thenThrow) {
            super(message);
            this.logger = logger;
            this.thenThrow = thenThrow;
        }

        @Override
        public String getMessage() {
            logger.info("nested from getMessage of " + super.getMessage());
            if (thenThrow) {
                throw new UnsupportedOperationException("getMessage failed");
            }
            return super.getMessage();
        }
    }

    /** A parameter whose text logs a record first (to the same logger). */
    static final class LoggingParameter {
        private final Logger logger;

        LoggingParameter(Logger logger) {
            this.logger = logger;
        }

        @Override
        public String toString() {
            logger.info("nested from toString");
            return "parameter";
        }
    }

    private static void nested(Path dir) throws Exception {
        nestedCase(dir, "thrown-printed", simple("%4$s %5$s%6$s%n"), false);
        nestedCase(dir, "thrown-unprinted", simple("%4$s %5$s%n"), false);
        nestedCase(dir, "thrown-fails", simple("%4$s %5$s%n"), true);
        nestedCase(dir, "xml-thrown", new XMLFormatter(), false);
        nestedCase(dir, "xml-fails", new XMLFormatter(), true);
        FileHandler handler = file(dir, "param-unprinted.log");
        Logger logger = logger("param-unprinted", handler, simple("%4$s %3$s%n"));
        logger.log(Level.INFO, "outer {0}", new LoggingParameter(logger));
        logger.info("after");
        handler.close();
        FileHandler printed = file(dir, "param-printed.log");
        Logger l2 = logger("param-printed", printed, simple("%4$s %5$s%n"));
        l2.log(Level.INFO, "outer {0}", new LoggingParameter(l2));
        l2.info("after");
        printed.close();
    }

    private static void nestedCase(Path dir, String name, Formatter formatter, boolean thenThrow) throws Exception {
        FileHandler handler = file(dir, name + ".log");
        Logger logger = logger(name, handler, formatter);
        logger.info("before");
        logger.log(Level.WARNING, "outer", new LoggingException(logger, "the exception", thenThrow));
        logger.info("after");
        handler.close();
        Handler[] none = logger.getHandlers();
        System.out.println(name + " handlers " + none.length);
    }
}
