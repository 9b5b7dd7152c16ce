package dev.spool.agent.host;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.channels.FileChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Test host closing the file under a Logback {@code FileAppender}, as Logback's own
 * {@code FileAppenderResilienceTest} does: Usage: {@code LogbackResilienceHost}, Logback configured by
 * {@code -Dlogback.configurationFile} with an appender {@code FILE} on the root logger. Logs three
 * lines, closes the channel of the appender's {@code ResilientFileOutputStream}, logs one line and
 * prints how many failures its recovery listener had seen when that call returned
 * ({@code failures at the call <n>}), then logs until the stream recovered (bounded: 20 s) and prints
 * {@code recovered <true|false>}, stops the context and prints {@code done}.
 */
public final class LogbackResilienceHost {

    public static void main(String[] args) throws Exception {
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object logger = factory.getMethod("getLogger", String.class).invoke(null, "host.resilience");
        Method info = logger.getClass().getMethod("info", String.class, Object.class);
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        Object root = context.getClass().getMethod("getLogger", String.class).invoke(context, "ROOT");
        Object appender = root.getClass().getMethod("getAppender", String.class).invoke(root, "FILE");
        Object resilient = appender.getClass().getMethod("getOutputStream").invoke(appender);
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger recoveries = new AtomicInteger();
        Class<?> listenerType = Class.forName("ch.qos.logback.core.recovery.RecoveryListener");
        Object listener = Proxy.newProxyInstance(listenerType.getClassLoader(), new Class<?>[] {listenerType}, (p, m, a) -> {
            if (m.getName().equals("newFailure")) {
                failures.incrementAndGet();
            } else if (m.getName().equals("recoveryOccured")) {
                recoveries.incrementAndGet();
            }
            return null;
        });
        resilient.getClass().getMethod("addRecoveryListener", listenerType).invoke(resilient, listener);
        for (int i = 0; i < 3; i++) {
            info.invoke(logger, "before {}", i);
        }
        ((FileChannel) resilient.getClass().getMethod("getChannel").invoke(resilient)).close();
        info.invoke(logger, "at the close {}", 0);
        System.out.println("failures at the call " + failures.get());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (int i = 0; recoveries.get() == 0 && System.nanoTime() < deadline; i++) {
            info.invoke(logger, "after {}", i);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // Logback retries after a back-off
        }
        System.out.println("recovered " + (recoveries.get() > 0));
        context.getClass().getMethod("stop").invoke(context);
        System.out.println("done");
    }
}
