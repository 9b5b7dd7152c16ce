package dev.spool.buffer;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path dir;

    private List<Path> listing() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void shouldReplaceContentAndLeaveNoTempFile() throws IOException {
        Path f = dir.resolve("a.json");
        Files.writeString(f, "old");
        AtomicFiles.write(f, "{\"new\":true}".getBytes(StandardCharsets.UTF_8), true);
        assertEquals("{\"new\":true}", Files.readString(f));
        assertEquals(List.of(f), listing());
    }

    @Test
    void shouldRemoveTempFileWhenRenameFails() throws IOException {
        Path target = dir.resolve("isadir.json");
        Files.createDirectory(target);
        Files.writeString(target.resolve("inside"), "x"); // a non-empty folder cannot be replaced
        assertThrows(IOException.class, () -> AtomicFiles.write(target, new byte[] {'1'}, false));
        assertEquals(List.of(target), listing());
    }

    @Test
    void shouldReplaceASymlinkItselfNotWriteThroughIt() throws IOException {
        Path elsewhere = dir.resolve("elsewhere.txt");
        Files.writeString(elsewhere, "precious");
        Path link = dir.resolve("link.json");
        Files.createSymbolicLink(link, elsewhere);
        AtomicFiles.write(link, "{}".getBytes(StandardCharsets.UTF_8), false);
        assertEquals("precious", Files.readString(elsewhere));
        assertFalse(Files.isSymbolicLink(link));
        assertEquals("{}", Files.readString(link));
    }

    @Test
    void shouldRecogniseTempNamesAndNeverDataNames() {
        assertTrue(AtomicFiles.isTempFile(Path.of(".a.json.spool-tmp-0123456789abcdef")));
        assertFalse(AtomicFiles.isTempFile(Path.of("a.json")));
        assertFalse(AtomicFiles.isTempFile(Path.of("a.json.spool-conflict-17")));
        assertFalse(AtomicFiles.isTempFile(Path.of(".a.json.spool-tmp-short")));
    }

    @Test
    void shouldWriteConflictFilesBesideWithUniqueNames() throws IOException {
        Path f = dir.resolve("c.json");
        Files.writeString(f, "theirs");
        Path c1 = AtomicFiles.writeConflict(f, "ours1".getBytes(StandardCharsets.UTF_8), false);
        Path c2 = AtomicFiles.writeConflict(f, "ours2".getBytes(StandardCharsets.UTF_8), false);
        assertNotEquals(c1, c2);
        assertTrue(c1.getFileName().toString().startsWith("c.json.spool-conflict-"), c1.toString());
        assertEquals("ours1", Files.readString(c1));
        assertEquals("ours2", Files.readString(c2));
        assertEquals("theirs", Files.readString(f));
        assertEquals(3, listing().size());
    }
}
