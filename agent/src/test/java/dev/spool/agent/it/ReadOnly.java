package dev.spool.agent.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A folder made read-only for the forked host: by permissions for a normal user; as root (which
 * ignores permissions) by the immutable attribute ({@code chattr +i}), undone afterwards.
 */
final class ReadOnly {

    private final Path dir;
    private final boolean immutable;

    private ReadOnly(Path dir, boolean immutable) {
        this.dir = dir;
        this.immutable = immutable;
    }

    /** Makes {@code dir} read-only and proves it; null when that is not possible here. */
    static ReadOnly make(Path dir) throws IOException, InterruptedException {
        boolean root = "root".equals(System.getProperty("user.name"));
        ReadOnly ro;
        if (root) {
            if (!run("chattr", "+i", dir.toString())) {
                return null;
            }
            ro = new ReadOnly(dir, true);
        } else {
            if (!dir.toFile().setWritable(false, false)) {
                return null;
            }
            ro = new ReadOnly(dir, false);
        }
        try {
            Files.createFile(dir.resolve("probe"));
            Files.delete(dir.resolve("probe"));
            ro.undo();
            return null;
        } catch (IOException expected) {
            return ro;
        }
    }

    void undo() throws IOException, InterruptedException {
        if (immutable) {
            run("chattr", "-i", dir.toString());
        } else {
            dir.toFile().setWritable(true, true);
        }
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
