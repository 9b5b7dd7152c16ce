package dev.spool.bridge;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The owner a JUL {@code FileHandler.open} leaves for its stream ({@link Hooks#nextStreamOwner}):
 * an open that fails before its stream is made never consumes it, so it must not keep the
 * discarded handler alive.
 */
class HooksStreamOwnerTest {

    @Test
    void shouldNotKeepTheHandlerOfAFailedOpenAlive() {
        WeakReference<Object> handler = openThatFails();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (handler.get() != null && System.nanoTime() < deadline) {
            System.gc(); // awaits the condition: the handler collected
        }
        assertNull(handler.get(), "the thread-local still holds the handler of a failed open");
        OutputStream out = new ByteArrayOutputStream();
        assertSame(out, Hooks.wrapLogStream("jul", null, out), "no hooks installed here: the stream is the host's");
    }

    private static WeakReference<Object> openThatFails() {
        Object failedHandler = new Object();
        Hooks.nextStreamOwner(failedHandler);
        Hooks.nextStreamName("/no/such/folder/app.log");
        return new WeakReference<>(failedHandler); // the open threw: its stream never reached wrapLogStream
    }
}
