package dev.spool.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host's look at a routed log's folder ({@link RoutedLogReads}) in the window of a roll on Spool's
 * writer thread: the old stream is closed (no stream is routed) and the new one not yet open, while
 * the appender's captured events wait behind the roll.
 */
class RoutedLogReadsTest {

    @TempDir
    Path dir;

    @Test
    void shouldLookForAnAppendersCapturesWhileItsOldStreamIsClosedAndTheNewOneNotYetOpen() {
        AgentControl control = new AgentControl("test", Map.of());
        Object appender = new Object();
        List<Object> drained = new CopyOnWriteArrayList<>();
        control.logIdleTest(o -> false); // its writer holds its lock: the roll is in progress, events wait behind it
        control.capturedLogsOf(drained::add);
        RoutedLogReads reads = new RoutedLogReads(control, 10_000);
        RoutedStream old = new RoutedStream(OutputStream.nullOutputStream(), OutputStream.nullOutputStream(), control,
                dir.resolve("app.log").toString(), Long.MAX_VALUE, 0).owner(appender);
        control.track(old);

        control.forget(old); // the roll's closeOutputStream; its rename and the new stream come next

        assertTrue(reads.any(), "the woven file classes still ask about the host's looks between two streams of a log");
        reads.beforeLook(dir);
        assertEquals(List.of(appender), drained, "the look waited for the appender's roll and captured events");
    }
}
