package dev.spool.buffer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new file is created at the call (issue 10 item 7) with the fewest system calls that keep it
 * atomic and never replace someone else's name (issue 16, the write-once floor): no {@code lstat} of
 * a new name (the JDK throws for a missing one, ~10 us), a hard link that fails on any existing
 * name (a dangling symlink's too), and the leftover a kill between link and unlink could leave.
 */
class NewFileCreateTest {
    @TempDir
    Path dir;
    SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build());

    @AfterEach
    void close() throws FlushException {
        buffer.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    private List<String> names(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void shouldCreateNewFilesInAKnownFolderWithoutStatingTheirNames() throws IOException {
        Path folder = Files.createDirectory(dir.toRealPath().resolve("jobs"));
        assertTrue(buffer.putSnapshot(folder.resolve("first.json"), b("{}"))); // the folder is known from now on
        long before = RealPaths.nameStats();
        for (int i = 0; i < 20; i++) {
            assertTrue(buffer.putSnapshot(folder.resolve("job" + i + ".json"), b("{\"job\":" + i + "}")));
        }
        assertEquals(before, RealPaths.nameStats(), "a new name costs an access(F_OK), not an lstat that throws");
        for (int i = 0; i < 20; i++) {
            assertEquals("{\"job\":" + i + "}", Files.readString(folder.resolve("job" + i + ".json")));
        }
        assertEquals(21, names(folder).size(), "no temp name left: " + names(folder));
    }

    @Test
    void shouldResolveANewFolderUnderAKnownOneWithoutARealPathWalk() throws IOException {
        Path jobs = Files.createDirectory(dir.toRealPath().resolve("workspace"));
        Files.createDirectory(jobs.resolve("s0"));
        assertTrue(buffer.putSnapshot(jobs.resolve("s0/a.json"), b("{}"))); // resolved in full once
        long walks = RealPaths.walks();
        for (int s = 1; s <= 5; s++) {
            Path folder = Files.createDirectories(jobs.resolve("s" + s + "/deeper"));
            assertTrue(buffer.putSnapshot(folder.resolve("a.json"), b("{\"s\":" + s + "}")));
            assertEquals("{\"s\":" + s + "}", Files.readString(folder.resolve("a.json")));
        }
        assertEquals(walks, RealPaths.walks(), "a folder under a known one costs one lstat, not a realpath walk");
        Path elsewhere = Files.createDirectory(dir.toRealPath().resolve("elsewhere"));
        Path link = Files.createSymbolicLink(jobs.resolve("linked"), elsewhere);
        assertTrue(buffer.putSnapshot(link.resolve("b.json"), b("{}")));
        assertEquals(walks + 1, RealPaths.walks(), "a symlinked folder is resolved in full");
        assertTrue(Files.exists(elsewhere.resolve("b.json")));
        assertEquals("{}", new String(buffer.readBuffered(elsewhere.resolve("b.json")), UTF_8), "keyed by its real path");
    }

    @Test
    void shouldRefuseANewNameThatIsADanglingSymlinkAndLeaveTheLinkAlone() throws IOException {
        Path folder = Files.createDirectory(dir.toRealPath().resolve("links"));
        assertTrue(buffer.putSnapshot(folder.resolve("first.json"), b("{}")));
        Path link = Files.createSymbolicLink(folder.resolve("doc.json"), folder.resolve("target.json"));
        // access(F_OK) follows the link and finds nothing, as for a new name; the create must not replace it
        assertFalse(buffer.putSnapshot(link, b("{\"v\":1}")), "the host's own write goes through the link");
        assertTrue(Files.isSymbolicLink(link), "the symlink is still there");
        assertFalse(Files.exists(folder.resolve("target.json")), "nothing written through it by Spool");
        assertEquals(List.of("doc.json", "first.json"), names(folder));
        assertEquals(0, buffer.metrics().dirtyEntries());
    }

    @Test
    void shouldNeverReplaceAnExistingNameWhenCreating() throws IOException {
        Path taken = dir.resolve("taken.json");
        Files.writeString(taken, "theirs");
        assertFalse(AtomicFiles.createNew(taken, b("ours"), false));
        assertEquals("theirs", Files.readString(taken));
        assertTrue(AtomicFiles.createNew(dir.resolve("free.json"), b("ours"), true));
        assertEquals("ours", Files.readString(dir.resolve("free.json")));
        assertEquals(List.of("free.json", "taken.json"), names(dir), "no temp name left");
    }

    @Test
    void shouldDropTheTempLinkAKilledCreateLeftAndBufferTheFile() throws IOException {
        Path f = dir.resolve("made.json");
        Files.writeString(f, "{\"v\":0}");
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        Path leftover = dir.resolve(".made.json" + AtomicFiles.TEMP_MARK + "0123456789abcdef");
        Files.createLink(leftover, f); // as a kill between createNew's link and unlink leaves it
        Path unrelated = Files.writeString(dir.resolve(".made.json" + AtomicFiles.TEMP_MARK + "fedcba9876543210"), "x");
        assertTrue(buffer.putSnapshot(f, b("{\"v\":1}")), "our own leftover link is not a second name of the host's");
        assertFalse(Files.exists(leftover, LinkOption.NOFOLLOW_LINKS), "the leftover link is removed");
        assertTrue(Files.exists(unrelated), "a temp name of another file (another inode) is left alone");
        buffer.flush();
        assertEquals("{\"v\":1}", Files.readString(f));
    }
}
