package dev.spool.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.events.EventReader;
import dev.spool.events.EventRecord;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A forked JVM exits normally while its target file system (a real tmpfs) is full. The buffered
 * files and the event bytes that could not be written are in the recovery folder (on another file
 * system), stderr names it, and the data is complete: each saved file equals what was buffered, and
 * the event file followed by the saved chunks (in MANIFEST order) reads back every event.
 */
class RecoveryTest {
    private static final int FILES = 5;
    private static final int EVENTS = 20_000;

    @TempDir
    Path tmp;

    @Test
    void shouldSaveWhatCannotBeWrittenAtExitToTheRecoveryFolder() throws Exception {
        Path recoveryParent = Files.createDirectory(tmp.resolve("recovery-parent"));
        try (Tmpfs fs = Tmpfs.mount(tmp.resolve("fs"), "2m")) {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx128m", "-Dspool.recovery.dir=" + recoveryParent, "-cp", System.getProperty("java.class.path"),
                    RecoveryChild.class.getName(), fs.dir.toString(), "" + FILES, "" + EVENTS);
            Process p = pb.start();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Thread errPump = new Thread(() -> {
                try {
                    p.getErrorStream().transferTo(err);
                } catch (java.io.IOException ignored) {
                    // the child ended
                }
            });
            errPump.start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                assertEquals("ready", out.readLine());
                fs.fill();
                p.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
                p.getOutputStream().flush();
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child did not exit");
                errPump.join(10_000);
            } finally {
                p.destroyForcibly();
            }
            String stderr = err.toString(StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), stderr);
            Matcher m = Pattern.compile("\\[spool\\] recovery folder (\\S+) holds (\\d+) buffered file").matcher(stderr);
            assertTrue(m.find(), "no recovery line for the buffer: " + stderr);
            assertEquals(FILES, Integer.parseInt(m.group(2)));
            Path folder = Path.of(m.group(1));
            assertTrue(folder.startsWith(recoveryParent), folder.toString());
            assertTrue(Pattern.compile("unwritten chunk\\(s\\) of \\S*events\\.spool").matcher(stderr).find(),
                    "no recovery line for the sink: " + stderr);
            List<String> manifest = Files.readAllLines(folder.resolve("MANIFEST.txt"));
            for (int i = 0; i < FILES; i++) {
                String original = fs.dir.resolve("doc-" + i + ".json").toString();
                String line = manifest.stream().filter(l -> l.endsWith("\t" + original)).findFirst().orElse(null);
                assertNotNull(line, "not in the manifest: " + original + " " + manifest);
                assertArrayEquals(DiskFullBufferTest.content(i, 7), Files.readAllBytes(folder.resolve(line.split("\t")[0])));
            }
            // rebuild the event file elsewhere: what reached the disk, then the chunks in manifest order
            Path rebuilt = tmp.resolve("rebuilt.spool");
            Files.copy(fs.dir.resolve("events.spool"), rebuilt);
            for (String l : manifest) {
                if (l.split("\t")[2].endsWith("events.spool")) {
                    Files.write(rebuilt, Files.readAllBytes(folder.resolve(l.split("\t")[0])),
                            java.nio.file.StandardOpenOption.APPEND);
                }
            }
            int expect = -1;
            try (EventReader r = EventReader.open(rebuilt)) {
                for (EventRecord rec : r) {
                    assertEquals(expect++, rec.value().get("i").intValue());
                }
                assertTrue(r.sound(), r.problems().toString());
            }
            assertEquals(EVENTS, expect, "events recovered");
        }
    }
}
