package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spool.buffer.create=flush} under the agent (issue 16, write-once): new files written once
 * by Jackson are held (not on disk when the call returns, served to Jackson's reads) and created by
 * the exit's flush; a name another process takes meanwhile keeps that process's file, and the
 * host's content goes beside it.
 */
class CreateAtFlushIT {
    private static final int FILES = 20;
    private static final String FOREIGN = "{\"theirs\":true}";

    @TempDir
    Path root;

    @Test
    void shouldCreateWriteOnceFilesAtTheExitFlushAndKeepANameTakenMeanwhile() throws Exception {
        Path dir = root.resolve("results");
        try (Forked host = Forked.start(root, "create-flush", Forked.agentArgs("spool.buffer.flush.interval=0,spool.buffer.create=flush"),
                Forked.hostClassPath(Forked.jackson()), "dev.spool.agent.host.WriteOnceHost", dir.toString(), Integer.toString(FILES))) {
            host.awaitOutput("buffered");
            String out = host.out();
            assertTrue(out.contains("buffered existing=0 read=" + FILES), "held, not created at the call, and served: " + out);
            Files.writeString(dir.resolve("job3.json"), FOREIGN); // another process takes one name before the flush
            host.closeInput();
            host.awaitSuccess();
        }
        for (int i = 0; i < FILES; i++) {
            if (i != 3) assertEquals("{\"job\":" + i + "}", Files.readString(dir.resolve("job" + i + ".json")), "job" + i);
        }
        assertEquals(FOREIGN, Files.readString(dir.resolve("job3.json")), "the other process's file is kept");
        List<Path> conflicts;
        try (Stream<Path> files = Files.list(dir)) {
            conflicts = files.filter(p -> p.getFileName().toString().startsWith("job3.json.spool-conflict-")).toList();
        }
        assertEquals(1, conflicts.size(), "the host's content beside it");
        assertEquals("{\"job\":3}", Files.readString(conflicts.get(0)));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(FILES + 1, files.count(), "no temp name left");
        }
    }
}
