package dev.spool.bench.sink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Temporary files for one benchmark invocation. */
final class BenchFiles {
    private BenchFiles() {
    }

    static Path fresh(String prefix) {
        try {
            return Files.createTempFile("spool-bench-" + prefix, ".spool");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void delete(Path p) {
        try {
            if (p != null) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // best effort
        }
    }

    static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
