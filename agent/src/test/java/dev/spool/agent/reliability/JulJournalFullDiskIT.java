package dev.spool.agent.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.agent.it.Forked;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33, the journal's full-ring wait with a sink that cannot write: a JUL {@code FileHandler}
 * with {@code SimpleFormatter} (captured and journaled) on a real 1 MiB tmpfs, a 64 KiB journal ring
 * ({@code -Ddev.spool.jul.journalBytes}), 20,000 records of 100 characters (2 MB): the disk fills, the
 * sink's writes fail, the lines written before the failure never reach the file, so the ring stays
 * full. A caller that finds it full drains and waits for the sink at most {@code spool.sink.wait.millis},
 * then stores without waiting for a second ({@code RingRoom.BACKOFF_NANOS}): its record is
 * captured without the journal, counted and named ({@code jul-journal-full}). The host's calls all return
 * (the host ends within the test's bound: 20,000 waits of the sink's 10 s would take days), its
 * {@code ErrorManager} is called, {@code flush()} and {@code close()} return: what plain JUL prints on the
 * same disk. Needs root for the mount (CI runs as root); skipped otherwise.
 */
class JulJournalFullDiskIT {
    private static final String FORMAT = "-Djava.util.logging.SimpleFormatter.format=%5$s%n";

    @TempDir
    Path root;

    @Test
    void shouldReturnFromEveryCallAndCountTheUnjournaledRecordsWhenTheDiskFillsTheRing() throws Exception {
        String plain = null;
        for (String name : List.of("plain", "agent")) {
            Path disk = Files.createDirectories(root.resolve("disk-" + name));
            Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.toString())
                    .redirectErrorStream(true).start();
            Assumptions.assumeTrue(mount.waitFor() == 0, "mounting a tmpfs needs root");
            try {
                List<String> jvm = new ArrayList<>(List.of("-Dprobe.simple=true", FORMAT, "-Dprobe.records=20000",
                        "-Ddev.spool.jul.journalBytes=65536"));
                if (name.equals("agent")) {
                    jvm.addAll(Forked.agentArgs(null));
                }
                Forked host = Forked.start(root, name + "-fulldisk", jvm, Forked.hostClassPath(),
                        "dev.spool.agent.host.JulProbeHost", "fulldisk", disk.resolve("probe.log").toString());
                assertEquals(0, host.await(Duration.ofMinutes(3)), host.describe());
                String out = host.out();
                assertTrue(out.contains("flushed\nclosed; ErrorManager called true\ndone"), name + ": " + host.describe());
                if (plain == null) {
                    plain = out;
                    continue;
                }
                assertEquals(plain, out, "what the host printed, plain vs agent");
                String err = host.err();
                assertTrue(err.contains("a record was captured without the journal (the ring stayed full"),
                        "the unjournaled records are named: " + err);
                System.out.println("JulJournalFullDiskIT: " + name + " " + err.lines()
                        .filter(l -> l.startsWith("logged in")).findFirst().orElse("?"));
            } finally {
                new ProcessBuilder("umount", "-l", disk.toString()).start().waitFor();
            }
        }
    }
}
