package dev.spool.reliability;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real, small tmpfs mounted for one test (needs root, as in CI) and unmounted on close. When it
 * cannot be mounted the test is skipped with an assumption naming why. {@link #fill()} writes a
 * filler file until the file system reports ENOSPC; {@link #free()} deletes it.
 */
final class Tmpfs implements AutoCloseable {
    final Path dir;
    private final Path filler;

    private Tmpfs(Path dir) {
        this.dir = dir;
        this.filler = dir.resolve("filler.bin");
    }

    static Tmpfs mount(Path mountPoint, String size) throws Exception {
        Files.createDirectories(mountPoint);
        String os = System.getProperty("os.name", "");
        assumeTrue(os.toLowerCase().contains("linux"), "tmpfs needs Linux, this is " + os);
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", mountPoint.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0,
                "cannot mount a tmpfs at " + mountPoint + " (needs root): " + out.trim());
        return new Tmpfs(mountPoint);
    }

    /** Writes until ENOSPC; returns the bytes the filler holds. */
    long fill() throws IOException {
        byte[] chunk = new byte[4096];
        long n = 0;
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(chunk);
                n += chunk.length;
                out.flush();
            }
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left")) throw full;
        }
        return n;
    }

    /** Frees {@code bytes} of what {@link #fill} took (the filler shrinks). */
    void free(long bytes) throws IOException {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(filler,
                java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(Math.max(0, ch.size() - bytes));
        }
    }

    void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    @Override
    public void close() throws IOException {
        Process p = new ProcessBuilder("umount", "-l", dir.toString()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        try {
            p.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
