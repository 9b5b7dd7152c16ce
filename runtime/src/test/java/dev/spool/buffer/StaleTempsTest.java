package dev.spool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36: the temp files a killed process left are removed, and only those. Owners here are
 * real processes: this one, a child that runs, a child that ended; a reused pid is this process's
 * pid under another start time.
 */
class StaleTempsTest {
    private static final String RANDOM = "0123456789abcdef";

    @TempDir
    Path dir;

    private final TempOwner self = TempOwner.self();

    private static String name(String target, long pid, long start, long tag) {
        return "." + target + TempName.mark(new TempOwner(pid, start, tag)) + RANDOM;
    }

    private Path temp(String name) throws IOException {
        return Files.writeString(dir.resolve(name), "{\"half\":");
    }

    private List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void shouldParseCurrentAndLegacyTempNamesAndNothingElse() {
        TempName n = TempName.parse(".a.json.spool-tmp-4242-987654-1a2b3c4d-" + RANDOM);
        assertEquals(new TempName("a.json", 4242, 987654, 0x1a2b3c4dL), n);
        assertFalse(n.legacy());
        TempName legacy = TempName.parse(".a.json.spool-tmp-" + RANDOM);
        assertNotNull(legacy);
        assertTrue(legacy.legacy());
        assertEquals("a.json", legacy.target());
        assertEquals("x.spool-tmp-y.json", TempName.parse(".x.spool-tmp-y.json.spool-tmp-" + RANDOM).target());
        for (String not : List.of(
                "a.json", "a.json.spool-conflict-1733270000000",
                "a.json.spool-tmp-" + RANDOM,                           // no leading dot
                "..spool-tmp-" + RANDOM,                                 // no target name
                ".a.json.spool-tmp-notes",
                ".a.json.spool-tmp-0123456789ABCDEF",                   // upper case: not ours
                ".a.json.spool-tmp-0123456789abcde",                    // 15 digits
                ".a.json.spool-tmp-" + RANDOM + ".bak",
                ".a.json.spool-tmp-4242-987654-1a2b3c4d-" + RANDOM + "-x",
                ".a.json.spool-tmp-4242-1a2b3c4d-" + RANDOM,           // a field missing
                ".a.json.spool-tmp-0-987654-1a2b3c4d-" + RANDOM,       // pid 0
                ".a.json.spool-tmp--1-987654-1a2b3c4d-" + RANDOM,
                ".a.json.spool-tmp-4242-98x654-1a2b3c4d-" + RANDOM,
                ".a.json.spool-tmp-4242-987654-1a2b3c4-" + RANDOM,     // 7-digit tag
                ".a.json.spool-tmp-99999999999-987654-1a2b3c4d-" + RANDOM)) {
            assertNull(TempName.parse(not), not);
            assertFalse(AtomicFiles.isTempFile(Path.of(not)), not);
        }
    }

    @Test
    void shouldNameThisProcessAsTheOwnerOfItsTempFiles() throws IOException {
        assertEquals(ProcessHandle.current().pid(), self.pid());
        assertTrue(self.start() > 0, "start ticks read from /proc/self/stat");
        assertTrue(self.tag() != 0, "namespace tag read from /proc");
        assertEquals(self.start(), TempOwner.startTicks(self.pid()));
        TempName n = TempName.parse("." + "doc.json" + TempName.mark(self) + RANDOM);
        assertTrue(self.owns(n));
        assertFalse(self.ownerGone(n));
    }

    @Test
    void shouldReadTheStartFieldPastACommandWithSpacesAndParentheses() {
        String stat = "4242 (my (odd) cmd) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 987654 1000 10";
        assertEquals(987654, TempOwner.fieldStart(stat));
        assertEquals(0, TempOwner.fieldStart("4242 (cut) S 1 2"));
    }

    @Test
    void shouldKeepATempFileOfThisLiveProcess() throws IOException {
        Path mine = temp(name("a.json", self.pid(), self.start(), self.tag()));
        StaleTemps.Sweep s = StaleTemps.sweep(dir);
        assertEquals(List.of(), s.removed());
        assertTrue(Files.exists(mine));
        assertTrue(s.kept().get(0).contains("this process's own"), s.kept().toString());
    }

    @Test
    void shouldKeepATempFileOfAnotherLiveProcess() throws Exception {
        Process child = new ProcessBuilder("sleep", "600").start();
        try {
            long start = TempOwner.startTicks(child.pid());
            assertTrue(start > 0);
            Path theirs = temp(name("a.json", child.pid(), start, self.tag()));
            StaleTemps.Sweep s = StaleTemps.sweep(dir);
            assertEquals(List.of(), s.removed());
            assertTrue(Files.exists(theirs), "a live writer's temp file stays");
            assertTrue(s.kept().get(0).contains("is running"), s.kept().toString());
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldRemoveATempFileOfADeadProcess() throws Exception {
        Process child = new ProcessBuilder("true").start();
        long start = TempOwner.startTicks(child.pid()); // 0 or -1 if it ended already: the name below then uses ours
        assertEquals(0, child.waitFor());
        Path dead = temp(name("a.json", child.pid(), start > 0 ? start : self.start(), self.tag()));
        StaleTemps.Sweep s = StaleTemps.sweep(dir);
        assertEquals(List.of(dead), s.removed());
        assertEquals(List.of(), names());
    }

    @Test
    void shouldRemoveATempFileWhosePidNowBelongsToAnotherProcess() throws IOException {
        // this process's pid, started at another time: the writer died and its pid was given to us
        Path reused = temp(name("a.json", self.pid(), self.start() - 1, self.tag()));
        assertEquals(List.of(reused), StaleTemps.sweep(dir).removed());
    }

    @Test
    void shouldRemoveTheSecondLinkAKilledCreateLeftAndKeepTheFile() throws IOException {
        Path data = Files.writeString(dir.resolve("made.json"), "{\"v\":1}");
        Path link = dir.resolve(name("made.json", self.pid(), self.start() - 1, self.tag()));
        Files.createLink(link, data); // a kill between createNew's link and unlink
        assertEquals(List.of(link), StaleTemps.sweep(dir).removed());
        assertEquals("{\"v\":1}", Files.readString(data));
        assertEquals(1, (Integer) Files.getAttribute(data, "unix:nlink"));
    }

    @Test
    void shouldKeepFilesThatAreNotSpoolTempFilesEvenWithSimilarNames() throws IOException {
        Path data = Files.writeString(dir.resolve("a.json"), "{}");
        String dead = name("a.json", self.pid(), self.start() - 1, self.tag());
        List<String> others = List.of("a.json.spool-tmp-" + RANDOM, ".a.json.spool-tmp-0123456789ABCDEF",
                ".a.json.spool-tmp-notes", "a.json.spool-conflict-1733270000000", dead + ".bak", "x" + dead);
        for (String o : others) temp(o);
        Files.createSymbolicLink(dir.resolve(dead), data);                                  // a symlink at our name
        Files.createDirectory(dir.resolve(name("b.json", self.pid(), self.start() - 1, self.tag()))); // a folder at our name
        List<String> before = names();
        StaleTemps.Sweep s = StaleTemps.sweep(dir);
        assertEquals(List.of(), s.removed());
        assertEquals(before, names());
        assertEquals("{}", Files.readString(data));
        assertTrue(Files.isSymbolicLink(dir.resolve(dead)));
        assertEquals(2, s.kept().size(), s.kept().toString()); // the link and the folder, each "not a regular file"
        assertTrue(s.kept().stream().allMatch(k -> k.endsWith("not a regular file")), s.kept().toString());
    }

    @Test
    void shouldRemoveLegacyAndForeignTempFilesOnlyOnceOlderThanAnHour() throws IOException {
        long otherTag = self.tag() ^ 0x5a5a5a5aL;
        Path legacyYoung = temp(".a.json.spool-tmp-" + RANDOM);
        Path foreignYoung = temp(name("a.json", self.pid(), self.start() - 1, otherTag));
        Path legacyOld = temp(".b.json.spool-tmp-" + RANDOM);
        Path foreignOld = temp(name("b.json", 1, 1, otherTag));
        FileTime twoHoursAgo = FileTime.fromMillis(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(2));
        Files.setLastModifiedTime(legacyOld, twoHoursAgo);
        Files.setLastModifiedTime(foreignOld, twoHoursAgo);
        StaleTemps.Sweep s = StaleTemps.sweep(dir);
        assertEquals(List.of(legacyOld, foreignOld).stream().sorted().toList(), s.removed().stream().sorted().toList());
        assertTrue(Files.exists(legacyYoung, LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.exists(foreignYoung, LinkOption.NOFOLLOW_LINKS), "another namespace's pid says nothing here");
        assertEquals(2, s.kept().size(), s.kept().toString());
    }

    @Test
    void shouldReportAMissingFolderAsAnErrorWithoutThrowing() {
        StaleTemps.Sweep s = StaleTemps.sweep(dir.resolve("missing"));
        assertEquals(List.of(), s.removed());
        assertEquals(1, s.errors().size());
        assertTrue(s.errors().get(0).contains("missing"), s.errors().toString());
    }

    @Test
    void shouldSweepAFolderBeforeItsFirstFlushInTheBufferAndCountIt() throws IOException {
        try (SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
            Path f = Files.writeString(dir.resolve("doc.json"), "{\"v\":0}");
            Path dead = temp(name("doc.json", self.pid(), self.start() - 1, self.tag()));
            Path mine = temp(name("doc.json", self.pid(), self.start(), self.tag()));
            assertTrue(buffer.putSnapshot(f, "{\"v\":1}".getBytes(StandardCharsets.UTF_8)));
            assertTrue(Files.exists(dead), "nothing is listed on the caller's put");
            buffer.flush();
            assertFalse(Files.exists(dead, LinkOption.NOFOLLOW_LINKS), "the killed writer's temp file is gone");
            assertTrue(Files.exists(mine), "this process's own is kept");
            assertEquals(1, buffer.staleTempFilesRemoved());
            assertEquals("{\"v\":1}", Files.readString(f));
            Path later = temp(name("doc.json", self.pid(), self.start() - 2, self.tag()));
            buffer.putSnapshot(f, "{\"v\":2}".getBytes(StandardCharsets.UTF_8));
            buffer.flush();
            assertTrue(Files.exists(later), "a folder is swept once per buffer");
            assertEquals(1, buffer.staleTempFilesRemoved());
        }
    }
}
