package dev.spool.agent.host;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host: a thread holding an application lock reads its JUL log while the record it just logged
 * is being formatted (its exception's {@code getMessage()} waits for that same lock). Without the
 * agent the read never touches the handler, so it returns. Usage: {@code LogReadLockHost <dir>};
 * prints {@code read returned}, then the file's line count once the handler is closed.
 */
public final class LogReadLockHost {

    static final Object APP_LOCK = new Object();
    static final CountDownLatch IN_MESSAGE = new CountDownLatch(1);

    /** An exception whose message needs the application's lock. */
    static final class Sticky extends Exception {
        @Override
        public String getMessage() {
            IN_MESSAGE.countDown();
            synchronized (APP_LOCK) {
                return "sticky";
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]).resolve("app.log");
        FileHandler handler = new FileHandler(file.toString());
        handler.setFormatter(new SimpleFormatter());
        Logger logger = Logger.getLogger("host.lock");
        logger.setUseParentHandlers(false);
        logger.addHandler(handler);
        for (int i = 0; i < 10; i++) {
            logger.info("before " + i);
        }
        synchronized (APP_LOCK) {
            logger.log(Level.SEVERE, "boom", new Sticky());
            // the message is read on this thread (the lock is re-entrant), plain and, since issue 30,
            // with the agent; before, the agent's record writer read it holding the handler's monitor
            IN_MESSAGE.await(20, TimeUnit.SECONDS);
            Files.readAllLines(file);
            System.out.println("read returned");
        }
        logger.info("after");
        handler.close();
        long sticky = Files.readAllLines(file).stream().filter(l -> l.contains("sticky")).count();
        System.out.println("lines " + Files.readAllLines(file).size() + ", sticky " + sticky);
    }
}
