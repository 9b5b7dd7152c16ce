package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spool.buffer.create=flush} under the agent (issue 16, write-once): new files written once
 * by Jackson are served to its reads and created by the buffer's flusher soon after, on its own
 * (no timed flush here, and before the host exits), whole, with no temp name left.
 */
class CreateAtFlushIT {
    private static final int FILES = 20;

    @TempDir
    Path root;

    @Test
    void shouldHaveTheFlusherCreateWriteOnceFilesWhileTheHostRuns() throws Exception {
        Path dir = root.resolve("results");
        try (Forked host = Forked.start(root, "create-flush", Forked.agentArgs("spool.buffer.flush.interval=0,spool.buffer.create=flush"),
                Forked.hostClassPath(Forked.jackson()), "dev.spool.agent.host.WriteOnceHost", dir.toString(), Integer.toString(FILES))) {
            host.awaitOutput("buffered");
            assertTrue(host.out().contains(" read=" + FILES), "every read served: " + host.out());
            Forked.awaitCondition(() -> IntStream.range(0, FILES).allMatch(i -> Files.exists(dir.resolve("job" + i + ".json"))));
            for (int i = 0; i < FILES; i++) {
                assertEquals("{\"job\":" + i + "}", Files.readString(dir.resolve("job" + i + ".json")), "job" + i);
            }
            host.closeInput();
            host.awaitSuccess();
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(FILES, files.count(), "no temp or conflict name left");
        }
    }
}
