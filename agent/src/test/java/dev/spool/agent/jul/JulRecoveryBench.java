package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;

// Usage, after `mvn -B -q -pl agent -am package -DskipTests`: java -cp agent/target/spool-agent-shaded.jar:agent/target/test-classes dev.spool.agent.jul.JulRecoveryBench ROUNDS [CLASSPATH_TO_COMPARE ...]

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.zip.CRC32;

/**
 * Times the recovery of a full JUL journal in fresh JVMs (issue 33's target: a 64 MiB ring under
 * 1 s, cold). Fills a ring of {@code -Dbench.ringBytes} (64 MiB) once, the way a routed
 * {@code FileHandler} does ({@link MappedLogJournal#append} of {@link JulJournalCodec#encode}d captures),
 * with the JDK's default {@code SimpleFormatter} format, every record never written and its log
 * file gone; then, per round, copies it beside a fresh folder and runs {@code recover} in a new JVM
 * for each jar given (alternating; default: the first entry of this class path), printing the
 * {@code recover} call's ms, the child's wall ms and the recovered file's CRC (equal for every jar:
 * the same bytes). Records: half a text message, half a deferred pattern with an int, a string
 * and a long; one in 1,000 with a stack trace; {@code -Dbench.stepMicros} (7) apart, so a few
 * hundred thousand records share each second as a burst does. {@code -Dbench.childArgs} adds JVM
 * options to the children (e.g. {@code -XX:StartFlightRecording=filename=r.jfr}).
 *
 * <p>A measuring tool, not a test: it asserts nothing but the equal CRCs.
 */
public final class JulRecoveryBench {

    private JulRecoveryBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("recover")) {
            recoverHere(Path.of(args[1]));
            return;
        }
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        List<String> jars = new ArrayList<>(Arrays.asList(args).subList(Math.min(1, args.length), args.length));
        String cp = System.getProperty("java.class.path");
        if (jars.isEmpty()) {
            jars.add(cp.split(File.pathSeparator)[0]);
        }
        String testClasses = JulRecoveryBench.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        Path dir = Files.createTempDirectory("spool-recovery-bench");
        try {
            run(rounds, jars, testClasses, dir);
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void run(int rounds, List<String> jars, String testClasses, Path dir) throws Exception {
        Path template = fill(dir.resolve("template"));
        long[][] ms = new long[jars.size()][rounds];
        long[][] cpus = new long[jars.size()][rounds];
        long[] crcs = new long[jars.size()];
        for (int round = 0; round < rounds; round++) {
            for (int j = 0; j < jars.size(); j++) {
                Path run = Files.createDirectories(dir.resolve("run-" + j));
                Path log = run.resolve("app.log");
                Files.deleteIfExists(log);
                Files.copy(template, MappedLogJournal.journalOf(log), StandardCopyOption.REPLACE_EXISTING);
                List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
                String extra = System.getProperty("bench.childArgs", "").replace("{round}", round + "-" + j);
                if (!extra.isBlank()) {
                    cmd.addAll(Arrays.asList(extra.trim().split("\\s+")));
                }
                cmd.addAll(List.of("-cp", jars.get(j) + File.pathSeparator + testClasses,
                        JulRecoveryBench.class.getName(), "recover", log.toString()));
                long t0 = System.nanoTime();
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                int exit = p.waitFor();
                long wall = (System.nanoTime() - t0) / 1_000_000;
                String result = out.lines().filter(l -> l.startsWith("recover ")).findFirst().orElse(null);
                if (exit != 0 || result == null) {
                    throw new IllegalStateException(jars.get(j) + " failed (exit " + exit + "): " + out);
                }
                out.lines().filter(l -> !l.startsWith("recover ")).forEach(l -> System.out.println("  " + l));
                long crc = crc(log);
                if (round > 0 && crc != crcs[j]) {
                    throw new IllegalStateException("the recovered file differs between rounds for " + jars.get(j));
                }
                crcs[j] = crc;
                ms[j][round] = Long.parseLong(result.split("\\s+")[1]);
                cpus[j][round] = Long.parseLong(result.split("\\s+")[5]);
                System.out.printf("round %d  %-50s %s  wall %d ms  file %d bytes crc %08x%n", round, jars.get(j), result, wall,
                        Files.size(log), crc);
            }
        }
        for (int j = 0; j < jars.size(); j++) {
            long[] s = ms[j].clone();
            Arrays.sort(s);
            System.out.printf("%-50s recover ms: min %d  median %d  max %d  %s; process CPU ms %s%n", jars.get(j), s[0],
                    s[s.length / 2], s[s.length - 1], Arrays.toString(ms[j]), Arrays.toString(cpus[j]));
            if (crcs[j] != crcs[0]) {
                System.out.println("  DIFFERENT BYTES from " + jars.get(0));
            }
        }
    }

    /** The child: one recovery in this fresh JVM, timed around the call. */
    private static void recoverHere(Path log) throws IOException {
        long t0 = System.nanoTime();
        JulJournalRecovery.Result r = JulJournalRecovery.recover(log, false);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        long cpu = ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toMillis).orElse(-1L);
        System.out.println("recover " + ms + " ms, process CPU " + cpu + " ms (JIT and GC threads too), " + r.describe(log));
    }

    /** A full ring journal of a log file that is gone: returns the journal. */
    private static Path fill(Path dir) throws IOException {
        System.setProperty("dev.spool.jul.journalBytes", System.getProperty("bench.ringBytes", "67108864"));
        Files.createDirectories(dir);
        Path log = dir.resolve("app.log");
        MappedLogJournal j = MappedLogJournal.create(log, CompiledSimpleFormatter.DEFAULT_FORMAT, StandardCharsets.UTF_8);
        JulJournalCodec codec = new JulJournalCodec();
        long step = Long.getLong("bench.stepMicros", 7) * 1_000;
        Instant start = Instant.parse("2026-12-04T07:00:00.000Z");
        int n = 0;
        while (true) {
            LogRecord r = record(n, start.plusNanos(n * step));
            java.nio.ByteBuffer b = codec.encode(JulCapture.capture(r, true, true));
            if (j.append(b.array(), b.position()) < 0) {
                break;
            }
            n++;
        }
        j.abandon();
        Path journal = MappedLogJournal.journalOf(log);
        System.out.printf("filled %s: %d records, %d bytes%n", journal, n, Files.size(journal));
        return journal;
    }

    private static final Throwable FAILURE = new IllegalStateException("payment gateway timed out");

    private static LogRecord record(int n, Instant at) {
        LogRecord r;
        if (n % 2 == 0) {
            r = new LogRecord(n % 10 == 0 ? Level.WARNING : Level.INFO, "Order " + (100_000 + n) + " accepted");
        } else {
            r = new LogRecord(Level.INFO, "Order {0} shipped to {1} in {2} ms");
            r.setParameters(new Object[] {100_000 + n, "warehouse-" + (n % 7), (long) (n % 997)});
        }
        if (n % 1000 == 999) {
            r.setThrown(FAILURE);
        }
        r.setLoggerName("com.example.shop.Orders");
        r.setSourceClassName("com.example.shop.Orders");
        r.setSourceMethodName("place");
        r.setInstant(at);
        return r;
    }

    private static long crc(Path file) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int k; (k = in.read(buf)) > 0; ) {
                crc.update(buf, 0, k);
            }
        }
        return crc.getValue();
    }
}
