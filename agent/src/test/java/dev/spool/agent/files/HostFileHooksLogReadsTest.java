package dev.spool.agent.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.spool.bridge.Hooks;
import java.io.File;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which host file operations write a routed log's pending records first: opening it to read,
 * copying it, a child process; not a write, an attribute read (Logback reads its file's length per
 * event) or a check. Nothing is asked while no log is routed.
 */
class HostFileHooksLogReadsTest {

    /** Records what the hooks asked of the routed logs. */
    static final class Recorded implements HostFileHooks.RoutedLogFiles {
        volatile boolean routed = true;
        final List<String> asked = new ArrayList<>();

        @Override
        public boolean any() {
            return routed;
        }

        @Override
        public void beforeRead(Path file) {
            asked.add("read " + file);
        }

        @Override
        public void beforeLook(Path fileOrFolder) {
            asked.add("look " + fileOrFolder);
        }

        @Override
        public void beforeChildProcess() {
            asked.add("child");
        }

        @Override
        public void beforeFolderChange(Path fileOrFolder, boolean delete) {
            asked.add((delete ? "delete " : "list ") + fileOrFolder);
        }
    }

    private final Recorded logs = new Recorded();
    private final List<String> failures = new ArrayList<>();
    private final HostFileHooks hooks = new HostFileHooks(() -> null, logs, (k, m) -> failures.add(k + ": " + m));

    @Test
    void shouldWritePendingRecordsBeforeEachReadOfTheLog() {
        hooks.before(Hooks.FILE_READ, "/logs/app.log", null);
        hooks.before(Hooks.FILE_OPEN_MODE, "/logs/app.log", 1); // RandomAccessFile "r"
        hooks.before(Hooks.FILE_OPEN_OPTIONS, Path.of("/logs/app.log"), Set.of(StandardOpenOption.READ));
        hooks.before(Hooks.FILE_OPEN_OPTIONS, Path.of("/logs/app.log"), Set.of());
        hooks.before(Hooks.FILE_COPY, new File("/logs/app.log"), Path.of("/tmp/copy.log"));
        hooks.before(Hooks.FILE_SPAWN, null, null);
        assertEquals(List.of("read /logs/app.log", "read /logs/app.log", "read /logs/app.log", "read /logs/app.log",
                "read /logs/app.log", "child"), logs.asked);
        assertEquals(List.of(), failures);
    }

    @Test
    void shouldNotWaitForTheLogOnWritesOrAttributeReads() {
        hooks.before(Hooks.FILE_WRITE, "/logs/app.log", null);
        hooks.before(Hooks.FILE_OPEN_MODE, "/logs/app.log", 2); // "rw"
        hooks.before(Hooks.FILE_OPEN_OPTIONS, Path.of("/logs/app.log"), Set.of(StandardOpenOption.APPEND));
        hooks.before(Hooks.FILE_OPEN_OPTIONS, Path.of("/logs/app.log"), Set.of(StandardOpenOption.WRITE));
        hooks.before(Hooks.FILE_READ_ATTRIBUTES, new File("/logs/app.log"), null); // File.length, Files.size
        assertEquals(List.of(), logs.asked);
    }

    /** Issue 33: a listing or a deletion lets Spool put an idle log journal away first (the deletion without a look of its own). */
    @Test
    void shouldPutIdleJournalsAwayBeforeAListingOrADeletion() {
        hooks.before(Hooks.FILE_LIST, new File("/logs"), null);
        hooks.before(Hooks.FILE_DELETE, Path.of("/logs/app.log"), null);
        assertEquals(List.of("look /logs", "list /logs", "delete /logs/app.log"), logs.asked);
    }

    @Test
    void shouldLookAtTheLogsBeforeAListingOrAnExistenceCheck() {
        hooks.before(Hooks.FILE_STAT, new File("/logs/app-2026-12-04.0"), null);
        hooks.before(Hooks.FILE_LIST, new File("/logs"), null);
        assertEquals(List.of("look /logs/app-2026-12-04.0", "look /logs", "list /logs"), logs.asked);
    }

    @Test
    void shouldAskNothingAndBeInactiveWhileNoLogIsRouted() {
        logs.routed = false;
        assertFalse(hooks.active());
        hooks.before(Hooks.FILE_READ, "/logs/app.log", null);
        assertEquals(List.of(), logs.asked);
        logs.routed = true;
        assertTrue(hooks.active());
    }
}
