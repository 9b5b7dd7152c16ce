package dev.spool.agent.host;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Test host whose thread holds a Logback file appender's own lock while the main thread logs:
 * Usage: {@code LogbackBusyHost <records>}, Logback configured by {@code -Dlogback.configurationFile}
 * with one appender named {@code A}. The thread {@code holder} takes {@code A}'s
 * {@code streamWriteLock} and keeps it until another thread waits for it; meanwhile the main thread
 * logs {@code records} lines {@code line <i>} (plain Logback: the first one waits for the lock; under
 * the agent: the events wait in Spool's queue until it is full). Prints {@code slowest <ms>} (the
 * longest single log call), stops the context and prints {@code done}.
 */
public final class LogbackBusyHost {

    public static void main(String[] args) throws Exception {
        int records = Integer.parseInt(args[0]);
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object logger = factory.getMethod("getLogger", String.class).invoke(null, "host.busy");
        Method info = logger.getClass().getMethod("info", String.class, Object.class);
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        Object root = context.getClass().getMethod("getLogger", String.class).invoke(context, "ROOT");
        Object appender = root.getClass().getMethod("getAppender", String.class).invoke(root, "A");
        Field f = Class.forName("ch.qos.logback.core.OutputStreamAppender").getDeclaredField("streamWriteLock");
        f.setAccessible(true);
        ReentrantLock lock = (ReentrantLock) f.get(appender);
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            lock.lock();
            try {
                held.countDown();
                while (!lock.hasQueuedThreads()) { // until someone waits for it (bounded by the test's timeout)
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            } finally {
                lock.unlock();
            }
        }, "holder");
        holder.start();
        held.await();
        long slowest = 0;
        for (int i = 0; i < records; i++) {
            long start = System.nanoTime();
            info.invoke(logger, "line {}", i);
            slowest = Math.max(slowest, System.nanoTime() - start);
        }
        holder.join();
        System.out.println("slowest " + TimeUnit.NANOSECONDS.toMillis(slowest));
        context.getClass().getMethod("stop").invoke(context);
        System.out.println("done");
    }
}
