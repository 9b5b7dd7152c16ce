package dev.spool.buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/** A fresh file per JCStress state, in one folder per run (on {@code /dev/shm} when there is one). */
final class StressFiles {
    static final byte[] OLD = "{\"v\":\"old\"}".getBytes(StandardCharsets.US_ASCII);
    static final byte[] NEW = "{\"v\":\"new\"}".getBytes(StandardCharsets.US_ASCII);
    private static final AtomicLong NEXT = new AtomicLong();
    private static final Path DIR = folder();

    private StressFiles() {
    }

    private static Path folder() {
        try {
            Path shm = Path.of("/dev/shm");
            Path d = Files.isDirectory(shm) && Files.isWritable(shm)
                    ? Files.createTempDirectory(shm, "spool-jcstress-") : Files.createTempDirectory("spool-jcstress-");
            d.toFile().deleteOnExit();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new file holding {@link #OLD}. */
    static Path fileWithOld() {
        Path f = DIR.resolve("f" + NEXT.incrementAndGet() + ".json");
        try {
            Files.write(f, OLD);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return f;
    }

    /** 2 when {@code bytes} is {@link #NEW}, 1 when {@link #OLD}, 0 when null, 9 otherwise (torn). */
    static int kind(byte[] bytes) {
        if (bytes == null) {
            return 0;
        }
        return Arrays.equals(bytes, NEW) ? 2 : Arrays.equals(bytes, OLD) ? 1 : 9;
    }

    static int onDisk(Path f) {
        try {
            return kind(Files.readAllBytes(f));
        } catch (IOException e) {
            return 8;
        }
    }

    static void delete(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException ignored) {
            // a leftover in the run's temp folder
        }
    }
}
