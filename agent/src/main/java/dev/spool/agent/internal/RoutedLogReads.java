package dev.spool.agent.internal;

import dev.spool.agent.files.HostFileHooks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A host's read of its own routed log file finds everything it logged before the read, as without
 * the agent: the JDK's file operations are woven ({@code dev.spool.agent.files}), and opening a
 * routed file to read it, copying it or starting a child process first writes what the file's
 * captured records and sink still hold ({@link AgentControl#drainCapturedLogs()}, then
 * {@link RoutedStream#drain()}). Each wait is bounded by the sink's ({@code spool.sink.wait.millis});
 * past it, or on an error (reported, the stream then writes on the host's own path), the read
 * goes on with what is on disk.
 *
 * <p>Not drained: reads of the file's length or attributes (Logback's size policy reads the length
 * per event; {@link RoutedStream}'s length limit keeps that answer exact where it matters), a
 * path through another symlink or hard link, native code, other processes (they see the bytes
 * within {@code spool.events.visibility.max.ms}).
 *
 * <p>Thread-safe; runs on the host's thread that reads. Example (what a woven
 * {@code FileInputStream.open} of {@code app.log} leads to):
 * <pre>{@code
 * if (reads.any()) reads.beforeRead(Path.of("app.log")); // then the host's own open
 * }</pre>
 */
final class RoutedLogReads implements HostFileHooks.RoutedLogFiles {

    private final AgentControl control;

    RoutedLogReads(AgentControl control) {
        this.control = control;
    }

    @Override
    public boolean any() {
        return control.anyRoutedStream();
    }

    @Override
    public void beforeRead(Path file) {
        Path target = RoutedStream.absolute(file.toString());
        if (target == null) {
            return;
        }
        List<RoutedStream> open = control.openStreams();
        boolean drained = false;
        for (RoutedStream s : open) {
            if (target.equals(s.file())) {
                if (!drained) {
                    control.drainCapturedLogs(); // records captured before encoding reach their streams first
                    drained = true;
                }
                drain(s);
            }
        }
    }

    @Override
    public void beforeChildProcess() {
        List<RoutedStream> open = control.openStreams();
        if (open.isEmpty()) {
            return;
        }
        control.drainCapturedLogs();
        for (RoutedStream s : open) {
            drain(s);
        }
    }

    private void drain(RoutedStream s) {
        try {
            s.drain();
        } catch (IOException | RuntimeException e) {
            // RoutedStream reported it and writes on the host's own path from now on; the read goes on
            control.error("log-read-drain:" + s.name(), "cannot write " + s.name() + " before the host reads it ("
                    + e + "): the read finds what is on disk");
        }
    }
}
