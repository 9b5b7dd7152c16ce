package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample app under the agent, recorded with {@code -XX:StartFlightRecording}: {@code jfr print}
 * shows Spool's buffer flushes, sink write batches and periodic sink statistics with sane fields;
 * with {@code spool.jfr.enabled=false} the same run records none. (Conflicts, write errors and drops
 * do not happen in the sample app; {@code dev.spool.internal.jfr.JfrEventsTest} provokes them.)
 */
class JfrIT {

    static final String TYPES = "dev.spool.BufferFlush,dev.spool.SinkWrite,dev.spool.SinkStatistics";

    /** Spool's events only, the periodic one every 100 ms. */
    static final String SETTINGS = """
            <?xml version="1.0" encoding="UTF-8"?>
            <configuration version="2.0" label="JfrIT">
              <event name="dev.spool.BufferFlush"><setting name="enabled">true</setting></event>
              <event name="dev.spool.SinkWrite"><setting name="enabled">true</setting></event>
              <event name="dev.spool.SinkStatistics">
                <setting name="enabled">true</setting>
                <setting name="period">100 ms</setting>
              </event>
            </configuration>
            """;

    @TempDir
    Path root;

    @Test
    void shouldShowSpoolsEventsInARecordingOfTheSampleApp() throws Exception {
        String printed = recordSampleApp("on", "", 8000);
        assertTrue(field(printed, "dev.spool.BufferFlush", "files").stream().anyMatch(n -> n > 0), printed);
        assertTrue(printed.contains("trigger = \"timer\"") || printed.contains("trigger = \"exit\""), printed);
        assertTrue(field(printed, "dev.spool.SinkWrite", "records").stream().allMatch(n -> n > 0), printed);
        assertFalse(field(printed, "dev.spool.SinkWrite", "records").isEmpty(), printed);
        assertTrue(printed.contains("path = \"" + root.resolve("on").resolve("events.spool")), printed);
        // periodic: registered at the first sink write once JFR runs (d7779ce: nothing touches JFR
        // before it starts), so the run must outlast a period after it. The recording's settings
        // shorten the period to 100 ms (the default 1 s outlasted the whole run on Java 25 in CI);
        // what it counts depends on where the tick falls. Java 25's periodic thread may still sleep
        // up to a second before it serves an event registered while it waits: on a fast machine a
        // 2,000-step run (~1 s) ended first in 2 of 3 runs, so this run takes 8,000 steps (~3 s)

        assertFalse(field(printed, "dev.spool.SinkStatistics", "eventsWritten").isEmpty(), printed);
        assertTrue(field(printed, "dev.spool.SinkStatistics", "eventsWritten").stream().allMatch(n -> n >= 0), printed);
    }

    @Test
    void shouldRecordNoSpoolEvents_whenSwitchedOff() throws Exception {
        String printed = recordSampleApp("off", ",spool.jfr.enabled=false", 2000);
        assertFalse(printed.contains("dev.spool."), printed);
    }

    private String recordSampleApp(String name, String extraOptions, int steps) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        Path recording = dir.resolve("app.jfr");
        // Timed flushes every 100 ms: the exit flush alone may miss the recording, as the JVM runs
        // its shutdown hooks (Spool's exit flush, JFR's dump) concurrently.
        List<String> jvm = new ArrayList<>(Forked.agentArgs("spool.events.methods=dev.spool.sample.Emitter#emit,"
                + "spool.events.file=" + dir.resolve("events.spool") + ",spool.buffer.flush.interval=100"
                + extraOptions));
        Path settings = Files.writeString(dir.resolve("spool.jfc"), SETTINGS);
        jvm.add("-XX:StartFlightRecording=settings=" + settings + ",dumponexit=true,filename=" + recording);
        Forked app = Forked.start(dir, "sample", jvm, null, "-jar", sampleJar(), "--out",
                dir.resolve("out").toString(), "--jobs", "16", "--steps", String.valueOf(steps), "--threads", "2");
        app.awaitSuccess();
        assertTrue(Trees.spoolLines(app.err()).isEmpty(), app.describe());
        Path jfr = Path.of(Forked.java()).resolveSibling("jfr");
        Forked print = Forked.exec(dir, "print", List.of(jfr.toString(), "print", "--events", TYPES, recording.toString()));
        return print.awaitSuccess();
    }

    static String sampleJar() {
        String jar = System.getProperty("spool.it.sampleJar");
        assertTrue(jar != null && Files.isRegularFile(Path.of(jar)), "spool.it.sampleJar must name the built sample app: " + jar);
        return jar;
    }

    /** The values of {@code field} in every printed event of {@code type}. */
    static List<Long> field(String printed, String type, String field) {
        List<Long> values = new ArrayList<>();
        Matcher events = Pattern.compile(Pattern.quote(type) + " \\{(.*?)\\n\\}", Pattern.DOTALL).matcher(printed);
        while (events.find()) {
            Matcher value = Pattern.compile("\\n\\s*" + field + " = ([0-9]+)").matcher(events.group(1));
            if (value.find()) {
                values.add(Long.parseLong(value.group(1)));
            }
        }
        return values;
    }
}
