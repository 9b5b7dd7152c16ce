package dev.spool.agent.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import java.io.FileOutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RELIABILITY F11(a), named: a roll closes the appender's stream and opens the next one under the
 * appender's lock, and in between ({@code setOutputStream}'s own {@code closeOutputStream}, a look at the
 * folder) something may ask the deferred appender to write what other threads queued meanwhile. Before
 * 4 Dec that drain wrote into no stream: every queued event failed (a {@code NullPointerException} seen only
 * in Logback's status) and was lost. Now a drain with no stream leaves them queued for the next file.
 */
class DeferredAppenderRollTest {

    @TempDir
    Path dir;

    @Test
    void shouldKeepEventsQueuedDuringARollForTheNextFile() throws Exception {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%msg%n");
        encoder.start();
        FileAppender<ILoggingEvent> appender = new FileAppender<>();
        appender.setContext(context);
        appender.setFile(dir.resolve("old.log").toString());
        appender.setEncoder(encoder);
        appender.start();
        DeferredAppender deferred = DeferredAppender.of(appender, encoder, LogbackEncoders.shape(encoder), 5_000, null, null,
                s -> { }, s -> { });
        deferred.active(true);
        ReentrantLock lock = AppenderAccess.of(appender).lock();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch queued = new CountDownLatch(1);
        Path next = dir.resolve("next.log");
        // the rolling thread: holds the appender's lock (Spool's writers cannot drain), closes the stream,
        // is asked to drain between the close and the open, opens the next file, drains there
        CompletableFuture<Void> roll = CompletableFuture.runAsync(() -> {
            lock.lock();
            try {
                held.countDown();
                assertTrue(queued.await(30, TimeUnit.SECONDS));
                Method close = OutputStreamAppender.class.getDeclaredMethod("closeOutputStream");
                close.setAccessible(true);
                close.invoke(appender);
                deferred.drainHere(); // the F11(a) moment: no stream now
                appender.setOutputStream(new FileOutputStream(next.toFile()));
                deferred.drainHere();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                lock.unlock();
            }
        });
        try {
            assertTrue(held.await(30, TimeUnit.SECONDS));
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                LoggingEvent e = new LoggingEvent("fqcn", context.getLogger("roll"), Level.INFO, "queued " + i, null, null);
                e.prepareForDeferredProcessing();
                assertTrue(deferred.capture(e, new Accept()), "event " + i + " not captured");
                expected.add("queued " + i);
            }
            queued.countDown();
            roll.get(30, TimeUnit.SECONDS);
            assertEquals(expected, Files.readAllLines(next, StandardCharsets.UTF_8),
                    "the events queued during the roll, in the next file, in order, once");
            assertEquals(0, Files.size(dir.resolve("old.log")));
        } finally {
            deferred.stop();
            appender.stop();
        }
    }

    /** Every event accepted, no caller data taken (the pattern prints none). */
    private static final class Accept implements DeferredAppender.StackTraceGetter {
        @Override
        public boolean capture(Object appender, Object event, boolean callerData) {
            return true;
        }

        @Override
        public boolean prepare(Object event) {
            return true;
        }
    }
}
