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
 * The host's own JDK file operations on files whose Jackson writes are buffered end as without
 * Spool: one forked host ({@code FileOpsHost}) runs every sequence (writeValue, then a read by
 * another path, a direct write or append, a deletion, a move or rename of the file or of a folder
 * holding it, a copy; writes after a direct write or a deletion), plain and with the agent (timed
 * flush off, so each write is still buffered when the operation runs). The two trees are the same
 * byte for byte, folders included; what each read saw is the same; no conflict, temp or recovery
 * file is left. A third run creates new files at the flush ({@code spool.buffer.create=flush}):
 * existence checks, listings, a recursive delete and a folder's deletion still find them.
 */
class HostFileOperationsIT {

    @TempDir
    Path root;

    @Test
    void shouldEndEveryHostFileOperationOnABufferedFileAsWithoutSpool() throws Exception {
        Path plain = root.resolve("plain");
        Path agent = root.resolve("agent");
        run(plain, List.of());
        sameAsPlain(plain, run(agent, Forked.agentArgs("spool.buffer.flush.interval=0,spool.log.level=debug")), agent);
        // new files created by the flusher: until it does, the host's checks and listings must find them
        Path createAtFlush = root.resolve("create-at-flush");
        sameAsPlain(plain, run(createAtFlush, Forked.agentArgs(
                "spool.buffer.flush.interval=0,spool.buffer.create=flush,spool.log.level=debug")), createAtFlush);
    }

    private static void sameAsPlain(Path plain, Forked host, Path agent) throws Exception {
        assertEquals(Files.readString(plain.resolve("observed.txt")), Files.readString(agent.resolve("observed.txt")),
                "what the host's reads saw");
        assertEquals(paths(plain), paths(agent), "the same files and folders");
        Trees.assertSameFiles(plain, agent);
        for (String set : List.of("set-last-modified", "set-last-modified-time", "set-attribute")) {
            Path doc = Path.of(set, "doc.json");
            assertEquals(Files.getLastModifiedTime(plain.resolve(doc)), Files.getLastModifiedTime(agent.resolve(doc)),
                    set + ": the host's own time stays after the exit");
        }
        assertTrue(host.err().contains("JDK file classes"), "the JDK's file classes are woven: " + host.err());
        assertEquals(List.of(), Trees.spoolLines(host.err()).stream()
                .filter(l -> l.contains("conflict") || l.contains("recovery") || l.contains("cannot")).toList());
    }

    private Forked run(Path dir, List<String> jvmArgs) throws Exception {
        try (Forked host = Forked.start(root, dir.getFileName().toString(), jvmArgs, Forked.hostClassPath(Forked.jackson()),
                "dev.spool.agent.host.FileOpsHost", dir.toString())) {
            host.awaitSuccess();
            return host;
        }
    }

    /** Every file and folder under {@code dir}, relative, sorted. */
    private static List<String> paths(Path dir) throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.map(p -> dir.relativize(p) + (Files.isDirectory(p) ? "/" : "")).sorted().toList();
        }
    }
}
