package dev.spool.internal.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * With the switch on (the default) and no recording in the JVM, the emission points load no JFR
 * event class: the first event object would make JFR load and register its classes (1.3 s for
 * that one call on a loaded machine, possibly on an application thread). A fresh JVM (this test's
 * own JVM may have started JFR in another test) calls every point and lists the classes it loaded.
 */
class NoRecordingTest {

    @Test
    void shouldLoadNoEventClass_whenNoRecordingEverRan() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(List.of(java.toString(), "-Xlog:class+load=info", "-cp",
                System.getProperty("java.class.path"), CallEveryPoint.class.getName()))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("called every point"), out);
        assertFalse(out.contains("dev.spool.internal.jfr.Events"), "an event class was loaded:\n" + grep(out));
    }

    private static String grep(String out) {
        StringBuilder b = new StringBuilder();
        out.lines().filter(l -> l.contains("dev.spool.internal.jfr") || l.contains("jdk.jfr")).forEach(l -> b.append(l).append('\n'));
        return b.toString();
    }

    /** The forked JVM's main: every emission point once, switch on, no recording. */
    public static final class CallEveryPoint {
        public static void main(String[] args) {
            SpoolJfr.setEnabled(true);
            SpoolJfr.bufferFlushed(SpoolJfr.beginBufferFlush(10), false, 1, 0, 0);
            SpoolJfr.sinkWritten(SpoolJfr.beginSinkWrite(), "events.spool", 1, 10);
            SpoolJfr.conflict(Path.of("a.json"), Path.of("a.json.spool-conflict"));
            SpoolJfr.writeError("buffer", "a.json", "disk full");
            SpoolJfr.fallback("encode failed");
            System.out.println("called every point");
        }
    }
}
