package dev.spool.internal.recovery;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Where data that could not be written at JVM exit goes, so the user can always get it back.
 *
 * <p>One folder per JVM, created at first use: {@code <java.io.tmpdir>/spool-recovery-<pid>-<millis>}
 * (the temp folder, so usually another file system than a full or read-only target); if that
 * cannot be created, the same name in the working directory. It holds one file per saved item,
 * named after the original's absolute path (separators become {@code _}), and {@code MANIFEST.txt}
 * with one line per item: what it is and where it belongs. Each save prints one stderr line
 * naming the folder and what it holds.
 *
 * <p>Thread-safe (synchronized; used only on shutdown paths). Never throws: a save that fails is
 * reported on stderr with what was lost.
 *
 * <pre>{@code
 * Path saved = RecoveryFolder.save("buffered file", "unsaved content of " + file, file, bytes);
 * }</pre>
 */
public final class RecoveryFolder {
    /** Overrides the parent folder (tests). */
    public static final String PARENT_PROPERTY = "spool.recovery.dir";

    private static Path folder;

    private RecoveryFolder() {}

    /**
     * Saves {@code parts} (concatenated) for {@code original} and prints one stderr line.
     * @param what     a short description for the manifest and the stderr line
     * @return the saved file, or null when nothing could be saved
     */
    public static synchronized Path save(String what, Path original, ByteBuffer... parts) {
        List<Item> one = new ArrayList<>();
        one.add(new Item(original, what, parts));
        List<Path> saved = saveAll(one, what);
        return saved.isEmpty() ? null : saved.get(0);
    }

    /** One thing to save: where it belongs, a description, its bytes. */
    public record Item(Path original, String what, ByteBuffer... parts) {}

    /** Saves each item; one stderr line for all of them, {@code summary} naming what they are. */
    public static synchronized List<Path> saveAll(List<Item> items, String summary) {
        List<Path> saved = new ArrayList<>();
        Path dir = folder();
        long bytes = 0;
        StringBuilder lost = new StringBuilder();
        for (Item it : items) {
            try {
                if (dir == null) throw new IOException("no recovery folder could be created");
                Path target = uniqueName(dir, it.original());
                try (FileChannel ch = FileChannel.open(target, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE)) {
                    for (ByteBuffer b : it.parts()) {
                        ByteBuffer d = b.duplicate();
                        while (d.hasRemaining()) bytes += ch.write(d);
                    }
                    ch.force(true);
                }
                Files.writeString(dir.resolve("MANIFEST.txt"), target.getFileName() + "\t" + it.what()
                        + "\t" + it.original() + System.lineSeparator(), StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                saved.add(target);
            } catch (IOException | RuntimeException e) {
                lost.append(' ').append(it.original()).append(" (").append(e).append(')');
            }
        }
        if (!saved.isEmpty()) {
            System.err.println("[spool] recovery folder " + dir + " holds " + saved.size() + " " + summary
                    + " (" + bytes + " bytes) that could not be written; see MANIFEST.txt there");
        }
        if (lost.length() > 0) {
            System.err.println("[spool] LOST, could not be saved to a recovery folder:" + lost);
        }
        return saved;
    }

    private static Path uniqueName(Path dir, Path original) {
        String base = original.toAbsolutePath().toString().replace('/', '_').replace('\\', '_').replace(':', '_');
        if (base.length() > 200) base = base.substring(base.length() - 200);
        Path p = dir.resolve(base);
        for (int n = 1; Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS); n++) {
            p = dir.resolve(base + "-" + n);
        }
        return p;
    }

    private static Path folder() {
        if (folder != null) return folder;
        String name = "spool-recovery-" + ProcessHandle.current().pid() + "-" + System.currentTimeMillis();
        String override = System.getProperty(PARENT_PROPERTY);
        List<Path> parents = new ArrayList<>();
        if (override != null && !override.isBlank()) parents.add(Path.of(override));
        parents.add(Path.of(System.getProperty("java.io.tmpdir")));
        parents.add(Path.of(System.getProperty("user.dir")));
        for (Path parent : parents) {
            try {
                Path dir = parent.resolve(name);
                folder = parent.getFileSystem().supportedFileAttributeViews().contains("posix")
                        ? Files.createDirectory(dir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")))
                        : Files.createDirectory(dir); // exclusive: never an existing one
                return folder;
            } catch (IOException | RuntimeException e) {
                // try the next parent
            }
        }
        return null;
    }
}
