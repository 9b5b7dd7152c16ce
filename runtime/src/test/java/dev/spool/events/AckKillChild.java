package dev.spool.events;

import dev.spool.sink.SinkSettings;
import dev.spool.sink.SinkType;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The forked JVM of {@link AcknowledgedKillTest}: opens the event file (a journal a killed
 * predecessor left is replayed then), and two threads emit {@code {"r":round,"t":thread,"i":seq,
 * "pad":...}} until killed. After each {@code emit} returned, the thread stores {@code seq} into
 * its slot of a {@code MAP_SHARED} side file: a store into a shared mapping belongs to the kernel
 * once done, so after a SIGKILL the side file holds exactly the last acknowledged seq per thread.
 * Every 997th event of thread 1 is a payload over the direct threshold (written directly); with
 * {@code split} every 101st event of thread 0 is over a small {@code recordMax} (written as parts).
 * Paced (a short park every 4th event). Prints {@code started} once both threads emitted; halts when its standard input ends (the
 * parent is gone) or the file passes 512 MB.
 * Usage: {@code AckKillChild <file> <acks> <round> <FILE|MMAP> [split]}.
 */
public final class AckKillChild {
    private AckKillChild() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int round = Integer.parseInt(args[2]);
        SinkType type = SinkType.valueOf(args[3]);
        boolean split = args.length > 4 && args[4].equals("split");
        Thread guard = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // wait for the end of the pipe
                }
            } catch (IOException ignored) {
                // same as its end
            }
            Runtime.getRuntime().halt(3);
        }, "orphan-guard");
        guard.setDaemon(true);
        guard.start();
        MappedByteBuffer acks;
        try (FileChannel ch = FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            acks = ch.map(FileChannel.MapMode.READ_WRITE, 0, 16);
        }
        acks.putLong(0, -1).putLong(8, -1);
        SinkSettings.Builder b = SinkSettings.builder().type(type);
        if (split) {
            b.recordMax(4096);
        }
        EventLog log = EventLog.open(file, b.build());
        Object started = new Object();
        int[] running = {0};
        for (int t = 0; t < 2; t++) {
            int id = t;
            new Thread(() -> {
                Map<String, Object> e = new HashMap<>();
                for (long i = 0; ; i++) {
                    e.put("r", round);
                    e.put("t", id);
                    e.put("i", i);
                    boolean big = id == 1 && i % 997 == 500;
                    boolean parts = split && id == 0 && i % 101 == 50;
                    e.put("pad", "p".repeat(big ? 70_000 : parts ? 10_000 : (int) (i % 200)));
                    log.emit(e);
                    acks.putLong(id * 8, i);             // acknowledged: emit returned
                    if (i % 4 == 0) {
                        LockSupport.parkNanos(10_000);   // a paced host: tens of thousands of events a second, not a disk filler
                    }
                    if (i == 100) {
                        synchronized (started) {
                            if (++running[0] == 2) {
                                System.out.println("started");
                                System.out.flush();
                            }
                        }
                    }
                    if (i % 20_000 == 0 && sizeOf(file) > (512L << 20)) {
                        Runtime.getRuntime().halt(4);
                    }
                }
            }, "emitter-" + t).start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
