package dev.spool.agent.reliability;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.FileHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The forked host of {@link JulJournalKillIT}: a JUL {@code FileHandler} (append, no rotation,
 * UTF-8) with {@code SimpleFormatter} and a format printing date, level, logger and message; two
 * threads log numbered lines {@code r<round> t<thread> <seq> ü} (thread 0 with typed parameters,
 * formatted by the writer; thread 1 a ready text). After each logging call returned, the thread
 * stores {@code seq} into its slot of a {@code MAP_SHARED} side file: the kernel's once stored, so
 * after a SIGKILL the side file holds exactly the last acknowledged seq per thread. Prints
 * {@code started} once both threads logged 100 lines; halts when its standard input ends (the
 * parent is gone). Usage: {@code JulJournalKillHost <log file> <acks file> <round> [truncate|rotate|rotate-truncate|xml|rotate-xml|app|rotate-app]}
 * (xml: the handler keeps its default formatter, {@code XMLFormatter}; app: a formatter class of the
 * application's, a {@code SimpleFormatter} subclass, whose records Spool leaves to the handler; truncate:
 * the handler opens its file with {@code append=false}; rotate: it appends and rotates at
 * {@code -Dkill.jul.limit} bytes, default {@value #ROTATE_LIMIT}, over {@code -Dkill.jul.count} files,
 * default {@value #ROTATE_COUNT}: {@code <log file>.0} is the newest, none is deleted in a test's rounds;
 * rotate-truncate: the same with {@code append=false}, so each start first moves the killed run's files on by one).
 */
public final class JulJournalKillHost {
    static final String FORMAT = "%1$tF %1$tT.%1$tL %4$s %3$s: %5$s%6$s%n";
    static final int ROTATE_LIMIT = 256 * 1024;
    static final int ROTATE_COUNT = 1000;

    private JulJournalKillHost() {
    }

    /**
     * Each line's last word, not ASCII, by its ASCII name ({@code -Dkill.jul.word}: a forked JVM's arguments may be
     * read as ASCII): {@code ja} Japanese, else {@code \u00fc}.
     */
    static String word(String name) {
        return "ja".equals(name) ? "\u65e5\u672c\u8a9e" : "\u00fc";
    }

    public static void main(String[] args) throws Exception {
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
        Locale.setDefault(Locale.US); // MessageFormat's grouping of the seq: "1,234"
        System.setProperty("java.util.logging.SimpleFormatter.format", FORMAT);
        int round = Integer.parseInt(args[2]);
        MappedByteBuffer acks;
        try (FileChannel ch = FileChannel.open(Path.of(args[1]), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            acks = ch.map(FileChannel.MapMode.READ_WRITE, 0, 16);
        }
        acks.putLong(0, -1).putLong(8, -1);
        String mode = args.length < 4 ? "" : args[3];
        FileHandler handler = mode.startsWith("rotate") // "rotate-truncate": append=false, so each start rotates first
                ? new FileHandler(args[0], Integer.getInteger("kill.jul.limit", ROTATE_LIMIT),
                        Integer.getInteger("kill.jul.count", ROTATE_COUNT), !mode.equals("rotate-truncate")) // <log>.0 (newest), <log>.1, ...
                : new FileHandler(args[0], !mode.equals("truncate")); // count 1, no limit: never rotates
        handler.setEncoding(System.getProperty("kill.jul.encoding", "UTF-8"));
        if (mode.endsWith("app")) {
            handler.setFormatter(new SimpleFormatter() { }); // the application's own class: formatted on the caller's thread
        } else if (!mode.endsWith("xml")) {
            handler.setFormatter(new SimpleFormatter()); // xml: FileHandler's default formatter, XMLFormatter
        }
        Logger log = Logger.getLogger("kill.jul");
        log.setUseParentHandlers(false);
        log.addHandler(handler);
        log.setLevel(Level.INFO);
        String word = word(System.getProperty("kill.jul.word"));
        Object started = new Object();
        int[] running = {0};
        for (int t = 0; t < 2; t++) {
            int id = t;
            new Thread(() -> {
                for (long seq = 0; ; seq++) {
                    if (id == 0) {
                        log.log(Level.INFO, "r{0} t0 {1} " + word, new Object[] {round, seq});
                    } else {
                        log.info("r" + round + " t1 " + seq + " " + word);
                    }
                    acks.putLong(id * 8, seq);               // acknowledged: the logging call returned
                    if (seq % 4 == 0) {
                        LockSupport.parkNanos(20_000);       // a paced host, not a disk filler
                    }
                    if (seq == 100) {
                        synchronized (started) {
                            if (++running[0] == 2) {
                                System.out.println("started");
                                System.out.flush();
                            }
                        }
                    }
                }
            }, "logger-" + t).start();
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
