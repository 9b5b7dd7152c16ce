package dev.spool.bench.buffer;

import dev.spool.buffer.BufferSettings;
import dev.spool.buffer.SharedBuffer;
import dev.spool.buffer.SnapshotContent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What a file the buffer refuses costs each call: a file with a second hard link (a rename would
 * detach one of the two names) in a folder of many files, put through the buffer (refused) and
 * then written by the host itself ({@code Files.write}, as the agent falls back), beside the
 * host's write alone, alternating in each round; prints µs per call for both. Not a JMH benchmark.
 * <pre>java -cp bench/target/benchmarks.jar dev.spool.bench.buffer.RefusedPutRun [--dir /tmp] [--files 10000] [--kib 1024] [--rounds 5]</pre>
 */
public final class RefusedPutRun {
    private static final int CALLS = 200;

    private RefusedPutRun() {}

    public static void main(String[] args) throws IOException {
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        int files = 10_000;
        int kib = 1024;
        int rounds = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> base = Path.of(args[++i]);
                case "--files" -> files = Integer.parseInt(args[++i]);
                case "--kib" -> kib = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory(base, "spool-refused-");
        try {
            for (int i = 0; i < files; i++) {
                Files.writeString(dir.resolve("f" + i + ".json"), "{}");
            }
            Path file = dir.resolve("linked.json");
            byte[] content = new byte[kib << 10];
            Arrays.fill(content, (byte) '1');
            Files.write(file, content);
            Files.createLink(dir.resolve("second-name.json"), file);
            try (SharedBuffer buffer = SharedBuffer.create(BufferSettings.builder().flushIntervalMillis(0).build())) {
                for (int r = 1; r <= rounds; r++) {
                    long refused = time(() -> {
                        if (buffer.putSnapshot(file, SnapshotContent.ofBytes(content))) {
                            throw new IllegalStateException("a hard-linked file was buffered");
                        }
                        Files.write(file, content);
                    });
                    long hostOnly = time(() -> Files.write(file, content));
                    System.out.printf("round %d: refused put + host write %d us, host write alone %d us%n",
                            r, refused / 1000, hostOnly / 1000);
                }
            }
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private interface Call {
        void run() throws IOException;
    }

    /** Nanoseconds per call, over {@link #CALLS} calls. */
    private static long time(Call call) throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < CALLS; i++) {
            call.run();
        }
        return (System.nanoTime() - start) / CALLS;
    }
}
