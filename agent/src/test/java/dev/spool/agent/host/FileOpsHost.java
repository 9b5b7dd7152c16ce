package dev.spool.agent.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Test host: many short sequences of a Jackson {@code writeValue(File)} of a file followed by one
 * of the host's own JDK file operations on it (reads and writes by other paths, deletions, moves,
 * renames, copies, a folder rename; a child process reading the file; files written once, then
 * checked, listed or deleted with their folder), each in a folder of its own under {@code <dir>}. What each
 * read saw goes to {@code <dir>/observed.txt} (not a JSON file: never buffered). Every file is
 * written twice first, so the second write is buffered under the agent (the first creates it).
 * Run once plain and once with the agent (timed flush off); the two trees must be identical.
 * Usage: {@code FileOpsHost <dir>}; prints {@code done}.
 */
public final class FileOpsHost {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String> OBSERVED = new ArrayList<>();
    /** The new-file sequences run this often: a flusher that happens to create a file first rarely wins them all. */
    private static final int NEW_FILE_ROUNDS = 10;

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        Files.createDirectories(root);
        reads(root);
        writes(root);
        deletions(root);
        moves(root);
        copies(root);
        folders(root);
        children(root);
        for (int round = 0; round < NEW_FILE_ROUNDS; round++) {
            newFiles(root.resolve("new-" + round));
        }
        Files.write(root.resolve("observed.txt"), OBSERVED, StandardCharsets.UTF_8);
        System.out.println("done");
    }

    private static void reads(Path root) throws IOException {
        observe(root, "fis", f -> new String(new FileInputStream(f).readAllBytes(), StandardCharsets.UTF_8));
        observe(root, "file-reader", f -> {
            try (BufferedReader r = new BufferedReader(new FileReader(f))) {
                return r.readLine();
            }
        });
        observe(root, "read-all-bytes", f -> new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8));
        observe(root, "read-string", f -> Files.readString(f.toPath()));
        observe(root, "new-input-stream", f -> {
            try (InputStream in = Files.newInputStream(f.toPath())) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        });
        observe(root, "buffered-reader", f -> {
            try (BufferedReader r = Files.newBufferedReader(f.toPath())) {
                return r.readLine();
            }
        });
        observe(root, "lines", f -> {
            try (Stream<String> lines = Files.lines(f.toPath())) {
                return String.join("|", lines.toList());
            }
        });
        observe(root, "file-channel", f -> {
            try (FileChannel ch = FileChannel.open(f.toPath(), StandardOpenOption.READ)) {
                ByteBuffer b = ByteBuffer.allocate((int) ch.size());
                ch.read(b);
                return new String(b.array(), StandardCharsets.UTF_8);
            }
        });
        observe(root, "random-access-r", f -> {
            try (RandomAccessFile raf = new RandomAccessFile(f, "r")) {
                return raf.readLine();
            }
        });
        observe(root, "file-length", f -> String.valueOf(f.length()));
        observe(root, "files-size", f -> String.valueOf(Files.size(f.toPath())));
        observe(root, "files-get-attribute", f -> String.valueOf(Files.getAttribute(f.toPath(), "size")));
        observe(root, "files-read-attributes-by-name", f -> String.valueOf(Files.readAttributes(f.toPath(), "size").get("size")));
    }

    private static void writes(Path root) throws IOException {
        change(root, "files-write", f -> Files.writeString(f.toPath(), "direct"));
        change(root, "new-output-stream", f -> {
            try (OutputStream out = Files.newOutputStream(f.toPath())) {
                out.write("direct-stream".getBytes(StandardCharsets.UTF_8));
            }
        });
        change(root, "fos", f -> {
            try (FileOutputStream out = new FileOutputStream(f)) {
                out.write("direct-fos".getBytes(StandardCharsets.UTF_8));
            }
        });
        change(root, "fos-append", f -> {
            try (FileOutputStream out = new FileOutputStream(f, true)) {
                out.write("+appended".getBytes(StandardCharsets.UTF_8));
            }
        });
        change(root, "files-append", f -> Files.writeString(f.toPath(), "+appended", StandardOpenOption.APPEND));
        change(root, "random-access-rw", f -> {
            try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
                raf.seek(raf.length());
                raf.write("+raf".getBytes(StandardCharsets.UTF_8));
            }
        });
        change(root, "channel-write", f -> {
            try (FileChannel ch = FileChannel.open(f.toPath(), StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                ch.write(ByteBuffer.wrap("+channel".getBytes(StandardCharsets.UTF_8)));
            }
        });
        // attribute changes after a buffered write apply to the written file and stay (the flush must not undo them)
        change(root, "set-last-modified", f -> {
            OBSERVED.add("set-last-modified: " + f.setLastModified(1_000_000_000_000L) + " " + f.lastModified());
        });
        change(root, "set-last-modified-time", f -> {
            Files.setLastModifiedTime(f.toPath(), FileTime.fromMillis(1_000_000_000_000L));
            OBSERVED.add("set-last-modified-time: " + Files.getLastModifiedTime(f.toPath()).toMillis());
        });
        change(root, "set-attribute", f -> {
            Files.setAttribute(f.toPath(), "lastModifiedTime", FileTime.fromMillis(1_000_000_000_000L));
            OBSERVED.add("set-attribute: " + f.lastModified());
        });
        // write -> Files.write -> writeValue: the last write wins
        change(root, "direct-then-json", f -> {
            Files.writeString(f.toPath(), "direct");
            MAPPER.writeValue(f, doc(3));
        });
        // write -> Files.write -> a read served by Jackson sees the direct write
        change(root, "direct-then-read", f -> {
            Files.writeString(f.toPath(), "{\"direct\":1}");
            OBSERVED.add("direct-then-read: " + MAPPER.readValue(f, Map.class));
        });
    }

    private static void deletions(Path root) throws IOException {
        change(root, "files-delete", f -> Files.delete(f.toPath()));
        change(root, "delete-if-exists", f -> Files.deleteIfExists(f.toPath()));
        change(root, "file-delete", f -> OBSERVED.add("file-delete: " + f.delete()));
        change(root, "delete-then-json", f -> {
            Files.delete(f.toPath());
            MAPPER.writeValue(f, doc(3));
        });
    }

    private static void moves(Path root) throws IOException {
        change(root, "move-source", f -> Files.move(f.toPath(), f.toPath().resolveSibling("moved.json")));
        change(root, "rename-source", f -> OBSERVED.add("rename-source: " + f.renameTo(new File(f.getParentFile(), "renamed.json"))));
        change(root, "move-backup-then-json", f -> { // backup rotation: doc.json -> doc.json.bak, then a new doc.json
            Files.move(f.toPath(), f.toPath().resolveSibling("doc.json.bak"), StandardCopyOption.REPLACE_EXISTING);
            MAPPER.writeValue(f, doc(3));
        });
        change(root, "move-target", f -> {
            Path other = Files.writeString(f.toPath().resolveSibling("other.txt"), "other");
            Files.move(other, f.toPath(), StandardCopyOption.REPLACE_EXISTING);
        });
        change(root, "move-target-refused", f -> {
            Path other = Files.writeString(f.toPath().resolveSibling("other.txt"), "other");
            try {
                Files.move(other, f.toPath());
            } catch (IOException e) {
                OBSERVED.add("move-target-refused: " + e.getClass().getSimpleName());
            }
        });
        change(root, "rename-target", f -> {
            Path other = Files.writeString(f.toPath().resolveSibling("other.txt"), "other");
            OBSERVED.add("rename-target: " + other.toFile().renameTo(f));
        });
    }

    private static void copies(Path root) throws IOException {
        change(root, "copy-source", f -> Files.copy(f.toPath(), f.toPath().resolveSibling("copy.json")));
        change(root, "copy-to-stream", f -> {
            try (OutputStream out = Files.newOutputStream(f.toPath().resolveSibling("copy.txt"))) {
                Files.copy(f.toPath(), out);
            }
        });
        change(root, "hard-link", f -> { // both names share the current content, and later writes reach both
            Files.createLink(f.toPath().resolveSibling("link.json"), f.toPath());
            MAPPER.writeValue(f, doc(3));
        });
        change(root, "copy-target", f -> {
            Path other = Files.writeString(f.toPath().resolveSibling("other.txt"), "other");
            Files.copy(other, f.toPath(), StandardCopyOption.REPLACE_EXISTING);
        });
        change(root, "copy-from-stream", f -> {
            try (InputStream in = new java.io.ByteArrayInputStream("streamed".getBytes(StandardCharsets.UTF_8))) {
                Files.copy(in, f.toPath(), StandardCopyOption.REPLACE_EXISTING);
            }
        });
    }

    private static void folders(Path root) throws IOException {
        Path job = root.resolve("folder-move").resolve("job-a");
        writeTwice(job.resolve("doc.json").toFile());
        writeTwice(job.resolve("sub").resolve("state.json").toFile());
        Files.move(job, job.resolveSibling("job-b"));
        Path renamed = root.resolve("folder-rename").resolve("job-a");
        writeTwice(renamed.resolve("doc.json").toFile());
        OBSERVED.add("folder-rename: " + renamed.toFile().renameTo(renamed.resolveSibling("job-b").toFile()));
        Path workspace = root.resolve("workspace-move").resolve("ws");
        writeTwice(workspace.resolve("job-1").resolve("doc.json").toFile());
        writeTwice(workspace.resolve("job-2").resolve("doc.json").toFile());
        Files.move(workspace, workspace.resolveSibling("ws-moved"));
        // a folder whose name starts like a buffered folder's is not it
        Path lookalike = root.resolve("lookalike");
        writeTwice(lookalike.resolve("job-10").resolve("doc.json").toFile());
        Files.createDirectories(lookalike.resolve("job-1"));
        Files.move(lookalike.resolve("job-1"), lookalike.resolve("job-1-moved"));
    }

    /**
     * Files written once, then looked at: under {@code spool.buffer.create=flush} the flusher has
     * usually not created them yet, so existence checks, listings and deletions must find them
     * (without the agent's hooks for them, most rounds see no file: checked by taking the hooks out).
     */
    private static void newFiles(Path root) throws IOException {
        observeNew(root, "new-file-exists", f -> f.exists() + " " + f.isFile() + " " + f.canRead() + " " + f.canWrite());
        observeNew(root, "new-files-exists", f -> Files.exists(f.toPath()) + " " + Files.isRegularFile(f.toPath())
                + " " + Files.notExists(f.toPath()) + " " + Files.isReadable(f.toPath()));
        observeNew(root, "new-last-modified", f -> String.valueOf(f.lastModified() > 0));
        observeNew(root, "new-create-new-file", f -> String.valueOf(f.createNewFile()));
        observeNew(root, "new-to-real-path", f -> String.valueOf(f.toPath().toRealPath().getFileName()));
        observeNew(root, "new-set-read-only", f -> f.setReadOnly() + " "
                + java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f.toPath())));
        observeNew(root, "new-file-list", f -> {
            String[] names = f.getParentFile().list();
            Arrays.sort(names);
            return String.join(",", names);
        });
        observeNew(root, "new-list-files", f -> String.valueOf(f.getParentFile().listFiles().length));
        observeNew(root, "new-files-list", f -> {
            try (Stream<Path> in = Files.list(f.toPath().getParent())) {
                return in.map(p -> p.getFileName().toString()).sorted().toList().toString();
            }
        });
        Path tree = root.resolve("new-walk-delete"); // a recursive delete finds every new file
        writeOnce(tree.resolve("a.json").toFile());
        writeOnce(tree.resolve("sub").resolve("b.json").toFile());
        try (Stream<Path> all = Files.walk(tree)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        OBSERVED.add("new-walk-delete: " + Files.exists(tree));
        Path folder = root.resolve("new-folder-delete"); // not empty: it holds a new file
        writeOnce(folder.resolve("doc.json").toFile());
        try {
            Files.delete(folder);
            OBSERVED.add("new-folder-delete: deleted");
        } catch (IOException e) {
            OBSERVED.add("new-folder-delete: " + e.getClass().getSimpleName());
        }
    }

    /** A child process reads the file: it must see the buffered content (and a new file not created yet). */
    private static void children(Path root) throws IOException {
        observe(root, "child-process-builder", f -> child(new ProcessBuilder("cat", f.getPath()).redirectErrorStream(true).start()));
        observe(root, "child-runtime-exec", f -> child(Runtime.getRuntime().exec(new String[] {"cat", f.getPath()})));
        observeNew(root, "child-new-file", f -> child(new ProcessBuilder("cat", f.getPath()).redirectErrorStream(true).start()));
    }

    private static String child(Process p) throws IOException {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            return out + " exit=" + p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static void observeNew(Path root, String name, Read read) throws IOException {
        File f = root.resolve(name).resolve("doc.json").toFile();
        writeOnce(f);
        OBSERVED.add(name + ": " + read.apply(f));
    }

    private static void writeOnce(File f) throws IOException {
        f.getParentFile().mkdirs();
        MAPPER.writeValue(f, doc(1));
    }

    private interface Read {
        String apply(File f) throws IOException;
    }

    private interface Change {
        void apply(File f) throws IOException;
    }

    private static void observe(Path root, String name, Read read) throws IOException {
        File f = root.resolve(name).resolve("doc.json").toFile();
        writeTwice(f);
        OBSERVED.add(name + ": " + read.apply(f));
    }

    private static void change(Path root, String name, Change change) throws IOException {
        File f = root.resolve(name).resolve("doc.json").toFile();
        writeTwice(f);
        change.apply(f);
    }

    private static void writeTwice(File f) throws IOException {
        f.getParentFile().mkdirs();
        MAPPER.writeValue(f, doc(1));
        MAPPER.writeValue(f, doc(2)); // buffered under the agent
    }

    private static Map<String, Object> doc(int step) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("step", step);
        doc.put("values", new double[] {0.5 * step, 1.25});
        doc.put("pad", "x".repeat(step)); // each step's document has its own size
        return doc;
    }
}
