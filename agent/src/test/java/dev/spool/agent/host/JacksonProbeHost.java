package dev.spool.agent.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * Behaviour probes of the host's own Jackson, run plain and with the agent: each probe prints what
 * a host can observe (file existence and length, reads by paths Spool does not weave, the
 * exception at the call, links and owners) as {@code name: value} lines; the test compares both
 * runs line by line, and the folders after exit file by file. Usage: {@code JacksonProbeHost <dir>}.
 *
 * <p>Where the agent is allowed to lag (an existing file read by an unwoven path before the flush,
 * README "Visibility"), a probe prints only what must hold in both runs: the value is the old or
 * the new content, never anything else, and the new one once the bound has passed (awaited).
 */
public final class JacksonProbeHost {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long BOUND_MILLIS = 30_000; // generous: the machine is loaded
    private static File root;

    public static void main(String[] args) throws Exception {
        root = new File(args[0]);
        root.mkdirs();
        nestedRead(); // first: no timed flush can have run between its write and its read
        failedRead(); // early too: its read must be served from the buffer
        updatingRead();
        serializerThrows();
        dotDotThroughALink();
        newFile();
        existingFile();
        refusedAtTheCall();
        hardLinkAndOwner();
        hostsLastWriteWins();
        touchAndSameContent();
        System.out.println("probes done");
    }

    private static void probe(String name, Callable<Object> observation) {
        Object value;
        try {
            value = observation.call();
        } catch (Exception e) {
            value = "threw " + e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replace(root.getPath(), "<dir>");
        }
        System.out.println(name + ": " + value);
    }

    private static File dir(String name) {
        File d = new File(root, name);
        d.mkdirs();
        return d;
    }

    /** Item 7: a new file exists, complete, when writeValue returns. */
    private static void newFile() throws Exception {
        File f = new File(dir("new"), "doc.json");
        MAPPER.writeValue(f, Map.of("v", 1));
        probe("new.exists", f::exists);
        probe("new.length", f::length);
        probe("new.readString", () -> Files.readString(f.toPath()));
        probe("new.readValues", () -> {
            try (MappingIterator<Map<?, ?>> it = MAPPER.readerFor(Map.class).readValues(f)) {
                return it.readAll();
            }
        });
        probe("new.readTree(stream)", () -> {
            try (InputStream in = new FileInputStream(f)) {
                return MAPPER.readTree(in);
            }
        });
        probe("new.readValue", () -> MAPPER.readValue(f, Map.class));
    }

    /** An existing file: woven reads see the write at once, other paths the old or new content, then the new within the bound. */
    private static void existingFile() throws Exception {
        File f = new File(dir("existing"), "doc.json");
        Files.writeString(f.toPath(), "{\"v\":0}");
        MAPPER.writeValue(f, Map.of("v", 1));
        probe("existing.readValue", () -> MAPPER.readValue(f, Map.class));
        probe("existing.readTree(File)", () -> MAPPER.readTree(f));
        probe("existing.readString.oldOrNew", () -> {
            String s = Files.readString(f.toPath());
            return s.equals("{\"v\":0}") || s.equals("{\"v\":1}");
        });
        probe("existing.readString.afterBound", () -> awaitContent(f, "{\"v\":1}"));
    }

    /** Item 8: writes the plain code would fail at the call fail at the call, with the same exception. */
    private static void refusedAtTheCall() throws Exception {
        File d = dir("refused");
        probe("refused.missingFolder", () -> write(new File(d, "missing/doc.json")));
        probe("refused.missingFolder.created", () -> new File(d, "missing").exists());
        File folder = new File(d, "folder.json");
        folder.mkdir();
        probe("refused.ontoFolder", () -> write(folder));
        File notFolder = new File(d, "not-a-folder.txt");
        Files.writeString(notFolder.toPath(), "x");
        probe("refused.underAFile", () -> write(new File(notFolder, "doc.json")));
        File readOnly = new File(d, "readonly.json");
        Files.writeString(readOnly.toPath(), "{\"v\":0}");
        readOnly.setWritable(false, false);
        boolean[] written = new boolean[1];
        probe("refused.readOnlyFile", () -> { // fails for a user, succeeds for root: both runs alike
            String r = write(readOnly);
            written[0] = true;
            return r;
        });
        probe("refused.readOnlyFile.content", () -> awaitContent(readOnly, written[0] ? "{\"v\":1}" : "{\"v\":0}"));
    }

    /** Item 8: a hard link keeps sharing the content; a file of another owner keeps its owner (root only). */
    private static void hardLinkAndOwner() throws Exception {
        File d = dir("links");
        File f = new File(d, "doc.json");
        Files.writeString(f.toPath(), "{\"v\":0}");
        File other = new File(d, "other-name.json");
        Files.createLink(other.toPath(), f.toPath());
        MAPPER.writeValue(f, Map.of("v", 1));
        probe("links.otherName", () -> Files.readString(other.toPath()));
        probe("links.sameFile", () -> Files.isSameFile(f.toPath(), other.toPath()));
        File theirs = new File(d, "theirs.json");
        Files.writeString(theirs.toPath(), "{\"v\":0}");
        boolean root = Files.getAttribute(theirs.toPath(), "unix:uid").equals(0);
        if (root) {
            Files.setAttribute(theirs.toPath(), "unix:uid", 65534);
        }
        MAPPER.writeValue(theirs, Map.of("v", 1));
        probe("owner.kept", () -> !root || Files.getAttribute(theirs.toPath(), "unix:uid").equals(65534));
        probe("owner.content", () -> Files.readString(theirs.toPath()));
    }

    /** Item 9: the host's own direct writes between two writeValue calls: the last write wins, no extra file. */
    private static void hostsLastWriteWins() throws Exception {
        File d = dir("last");
        File f = new File(d, "doc.json");
        File backup = new File(d, "backup.json");
        Files.writeString(f.toPath(), "{\"v\":0}");
        Files.writeString(backup.toPath(), "{\"v\":\"backup\"}");
        MAPPER.writeValue(f, Map.of("v", 1));
        Files.writeString(f.toPath(), "{\"v\":\"direct\"}");
        probe("last.readAfterDirect", () -> MAPPER.readValue(f, Map.class));
        MAPPER.writeValue(f, Map.of("v", 2));
        probe("last.readValue", () -> MAPPER.readValue(f, Map.class));
        probe("last.afterBound", () -> awaitContent(f, "{\"v\":2}"));
        MAPPER.writeValue(f, Map.of("v", 3));
        Files.copy(backup.toPath(), f.toPath(), StandardCopyOption.REPLACE_EXISTING);
        probe("last.readAfterCopy", () -> MAPPER.readValue(f, Map.class));
        MAPPER.writeValue(f, Map.of("v", 4));
        probe("last.afterCopyAndWrite", () -> awaitContent(f, "{\"v\":4}"));
        probe("last.files", () -> names(d));
    }

    /** Item 12: a touch or a rewrite of the same bytes is not someone else's change. */
    private static void touchAndSameContent() throws Exception {
        File d = dir("touch");
        File f = new File(d, "doc.json");
        Files.writeString(f.toPath(), "{\"v\":0}");
        Files.setLastModifiedTime(f.toPath(), FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        MAPPER.writeValue(f, Map.of("v", 1));
        Files.setLastModifiedTime(f.toPath(), FileTime.fromMillis(System.currentTimeMillis()));
        probe("touch.afterBound", () -> awaitContent(f, "{\"v\":1}"));
        probe("touch.files", () -> names(d));
    }

    /** Item 11: a read inside a serializer sees a write buffered just before. */
    private static void nestedRead() throws Exception {
        File d = dir("nested");
        File inner = new File(d, "inner.json");
        Files.writeString(inner.toPath(), "{\"v\":0}");
        MAPPER.writeValue(inner, Map.of("v", 1));
        File outer = new File(d, "outer.json");
        MAPPER.writeValue(outer, new ReadsWhileSerialized(inner));
        probe("nested.seenBySerializer", () -> MAPPER.readValue(outer, Map.class));
    }

    /**
     * A read that fails on a buffered file fails as on the file: same exception, same message, whose
     * location names the file as its source (Jackson 2.15 prints "(File)"; a read of the buffered
     * bytes printed "(byte[])" and the whole text).
     */
    private static void failedRead() throws Exception {
        File f = new File(dir("failedRead"), "doc.json");
        Files.writeString(f.toPath(), "{\"v\":0}");
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("v", "text");
        doc.put("w", 1);
        MAPPER.writeValue(f, doc);
        probe("failedRead.mismatch", () -> MAPPER.readValue(f, OneInt.class));
        probe("failedRead.reader", () -> MAPPER.readerFor(List.class).readValue(f));
        probe("failedRead.then", () -> MAPPER.readValue(f, Map.class));
    }

    /** A read into an existing object changes it once, also when it fails half-way (a retry would merge twice). */
    private static void updatingRead() throws Exception {
        File f = new File(dir("updating"), "doc.json");
        Files.writeString(f.toPath(), "{}");
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("items", List.of(1, 2));
        doc.put("n", "not a number");
        MAPPER.writeValue(f, doc);
        Merged target = new Merged();
        probe("updating.failed", () -> MAPPER.readerForUpdating(target).readValue(f));
        probe("updating.failed.target", () -> target.items);
        doc.put("items", List.of(3));
        doc.put("n", 5);
        MAPPER.writeValue(f, doc);
        Merged again = new Merged();
        probe("updating.ok", () -> {
            MAPPER.readerForUpdating(again).readValue(f);
            return again.items + " " + again.n;
        });
    }

    /** A bean whose list a read merges into ({@code @JsonMerge}: appended, not replaced). */
    public static final class Merged {
        @com.fasterxml.jackson.annotation.JsonMerge
        public List<Integer> items = new ArrayList<>(List.of(0));
        public int n;
    }

    /** A bean with one int property, for reads that fail. */
    public static final class OneInt {
        public int v;
    }

    /**
     * A serializer that throws half-way: plain Jackson has truncated the file and written what came
     * before the throw (a new file is created so), and the exception reaches the caller; a buffered
     * older write of the file does not outlive it.
     */
    private static void serializerThrows() throws Exception {
        File d = dir("throws");
        File existing = new File(d, "existing.json");
        Files.writeString(existing.toPath(), "{\"v\":0}");
        probe("throws.existing", () -> write(existing, new ThrowsHalfWay()));
        probe("throws.existing.content", () -> Files.readString(existing.toPath()));
        File fresh = new File(d, "new.json");
        probe("throws.new", () -> write(fresh, new ThrowsHalfWay()));
        probe("throws.new.content", () -> Files.readString(fresh.toPath()));
        File buffered = new File(d, "buffered.json");
        Files.writeString(buffered.toPath(), "{\"v\":0}");
        MAPPER.writeValue(buffered, Map.of("v", 1));
        probe("throws.buffered", () -> write(buffered, new ThrowsHalfWay()));
        probe("throws.buffered.read", () -> MAPPER.readValue(buffered, Map.class));
        // a custom serializer's structure the generator refuses (a TokenBuffer does not): plain throws at the call
        File broken = new File(d, "broken.json");
        Files.writeString(broken.toPath(), "{\"v\":0}");
        probe("throws.brokenStructure", () -> write(broken, new DiffTypes.BrokenStructure(false)));
        probe("throws.brokenStructure.content", () -> Files.readString(broken.toPath()));
        probe("throws.brokenStructure.next", () -> { // the torn file is an existing one: this write is buffered
            MAPPER.writeValue(broken, Map.of("v", 2));
            return MAPPER.readValue(broken, Map.class);
        });
    }

    /** Serialized as {@code {"a":1,} and then its getter throws. */
    public static final class ThrowsHalfWay {
        public int a = 1;

        public int getB() {
            throw new IllegalStateException("thrown half-way");
        }
    }

    /**
     * {@code link/../doc.json} where {@code link} is a symlink to a folder elsewhere: the OS
     * resolves the link first, so the file is the one beside the link's target, not the one beside
     * the link (a lexical normalisation of the path picks that wrong one).
     */
    private static void dotDotThroughALink() throws Exception {
        File d = dir("dotdot");
        Files.createDirectories(new File(d, "real/sub").toPath());
        Files.createSymbolicLink(new File(d, "link").toPath(), Paths.get("real/sub"));
        Files.writeString(new File(d, "real/doc.json").toPath(), "{\"v\":0}");
        Files.writeString(new File(d, "doc.json").toPath(), "{\"v\":\"beside the link\"}");
        File f = new File(d, "link/../doc.json");
        MAPPER.writeValue(f, Map.of("v", 1));
        probe("dotdot.read", () -> MAPPER.readValue(f, Map.class));
        probe("dotdot.besideTheLink", () -> MAPPER.readValue(new File(d, "doc.json"), Map.class));
        probe("dotdot.besideTheTarget", () -> MAPPER.readValue(new File(d, "real/doc.json"), Map.class));
        MAPPER.writeValue(new File(d, "link/../new.json"), Map.of("v", 2));
        probe("dotdot.new", () -> new File(d, "real/new.json").exists() + " " + new File(d, "new.json").exists());
    }

    /** A bean whose getter reads another file with the same mapper (runs inside writeValue). */
    public static final class ReadsWhileSerialized {
        private final File file;

        ReadsWhileSerialized(File file) {
            this.file = file;
        }

        public Object getInner() throws Exception {
            return MAPPER.readValue(file, Map.class);
        }
    }

    private static String write(File f) throws Exception {
        return write(f, Map.of("v", 1));
    }

    private static String write(File f, Object value) throws Exception {
        MAPPER.writeValue(f, value);
        return "written " + f.exists() + " " + f.length();
    }

    /** The file's content once it equals {@code expected}, or whatever it holds when the bound passes. */
    private static String awaitContent(File f, String expected) throws Exception {
        long deadline = System.nanoTime() + BOUND_MILLIS * 1_000_000;
        String s = Files.readString(f.toPath());
        while (!s.equals(expected) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(5_000_000L); // polling a condition, with a deadline
            s = Files.readString(f.toPath());
        }
        return s;
    }

    private static List<String> names(File d) {
        List<String> names = new ArrayList<>(List.of(d.list()));
        names.sort(null);
        return names;
    }
}
