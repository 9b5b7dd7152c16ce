package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC: a routed log file holds everything logged before the application's own
 * {@code Handler.flush()} once that call returns. The per-record flush JUL makes inside
 * {@code FileHandler.publish} is absorbed by the agent; an explicit one must not be. The host
 * counts its file's lines right after its flush returns, so the sink's linger cannot help.
 */
class ExplicitFlushIT {
    private static final int RECORDS = 5_000;

    @TempDir
    Path root;

    @Test
    void shouldHaveEveryRecordOnDiskWhenTheApplicationsFlushReturns() throws Exception {
        Path log = Files.createDirectories(root.resolve("out")).resolve("app.log");
        for (String mode : new String[] {"plain", "agent"}) {
            Files.deleteIfExists(log);
            try (Forked host = Forked.start(root, "host-" + mode,
                    mode.equals("agent") ? Forked.agentArgs(null) : List.of(), Forked.hostClassPath(),
                    "dev.spool.agent.host.FlushHost", log.toString(), String.valueOf(RECORDS))) {
                String out = host.awaitSuccess();
                assertEquals("visible " + RECORDS, out.trim(), mode + " run\n" + host.describe());
            }
        }
    }
}
