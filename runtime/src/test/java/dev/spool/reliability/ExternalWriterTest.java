package dev.spool.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.FlushReport;
import dev.spool.buffer.SharedBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another process ({@code sh}, so nothing of this JVM is involved) rewrites buffered files — same
 * size and within the same clock tick as Spool's own write, a different size, a rename over it, a
 * delete — between the buffering and the flush. Each time the outside content stays and the
 * buffered content is in {@code <name>.spool-conflict-<millis>}, counted.
 */
class ExternalWriterTest {
    @TempDir
    Path dir;

    @Test
    void shouldKeepTheOutsideContentAndWriteAConflictFileForEveryKindOfOutsideChange() throws Exception {
        String[][] cases = {
            {"same-size", "printf '{\"v\":9}' > same-size.json"},
            {"bigger", "printf '{\"v\":\"outside\"}' > bigger.json"},
            {"renamed", "printf '{\"v\":7}' > x.tmp && mv x.tmp renamed.json"},
            {"deleted", "rm deleted.json"},
        };
        try (SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
            for (String[] c : cases) {
                Path f = dir.resolve(c[0] + ".json");
                assertTrue(buffer.putSnapshot(f, "{\"v\":0}".getBytes())); // a new file: written at the call
                assertEquals("{\"v\":0}", Files.readString(f));
                assertTrue(buffer.putSnapshot(f, "{\"v\":1}".getBytes()));
                Process p = new ProcessBuilder("sh", "-c", c[1]).directory(dir.toFile()).inheritIO().start();
                assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, c[1]);
                byte[] outside = Files.exists(f) ? Files.readAllBytes(f) : null;
                long conflictsBefore = buffer.metrics().conflicts();
                FlushReport report = buffer.flushWithReport();
                assertEquals(1, report.conflicts().size(), c[0] + ": " + report);
                assertEquals(conflictsBefore + 1, buffer.metrics().conflicts());
                if (outside == null) {
                    assertTrue(Files.notExists(f), c[0] + ": a deleted file must not be resurrected");
                } else {
                    assertArrayEquals(outside, Files.readAllBytes(f), c[0] + ": outside content overwritten");
                }
                try (Stream<Path> s = Files.list(dir)) {
                    List<Path> conflicts = s.filter(x -> x.getFileName().toString().startsWith(c[0] + ".json.spool-conflict-")).toList();
                    assertEquals(1, conflicts.size(), c[0] + ": " + conflicts);
                    assertEquals("{\"v\":1}", Files.readString(conflicts.get(0)));
                }
            }
        }
    }
}
