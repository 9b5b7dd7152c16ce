package dev.spool.agent.host;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.RandomAccessFile;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.FileHandler;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Test host that reads its own log files right after logging to them, as Logback's own
 * {@code SizeAndTimeBasedFNATP_Test} does: each round logs through a JUL {@code FileHandler}
 * ({@code SimpleFormatter}) and a Logback {@code FileAppender} (configured by
 * {@code -Dlogback.configurationFile}, writing {@code <dir>/logback.log}; SLF4J called
 * reflectively), then at once counts the lines each read path finds: {@code Files.readAllLines},
 * a {@code FileReader}, a {@code RandomAccessFile}'s length, {@code Files.copy}, {@code Files.lines},
 * and (first round) a child process's {@code wc -l}. Usage: {@code LogReadHost <dir> <rounds> <records>};
 * prints one line per observation. With {@code -Dlogread.thread=<name>} all of it runs on a thread of that name.
 */
public final class LogReadHost {

    public static void main(String[] args) throws Exception {
        String name = System.getProperty("logread.thread");
        if (name == null) {
            run(args);
            return;
        }
        Throwable[] failed = {null};
        Thread t = new Thread(() -> {
            try {
                run(args);
            } catch (Throwable e) {
                failed[0] = e;
            }
        }, name);                       // an application thread whose name happens to start like Spool's own
        t.start();
        t.join();
        if (failed[0] != null) {
            throw new IllegalStateException("the " + name + " thread failed", failed[0]);
        }
    }

    private static void run(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int records = Integer.parseInt(args[2]);
        System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s %3$s %5$s%n");
        Path julFile = dir.resolve("jul.log");
        FileHandler handler = new FileHandler(julFile.toString());
        handler.setFormatter(new SimpleFormatter());
        Logger jul = Logger.getLogger("host.jul");
        jul.setUseParentHandlers(false);
        jul.addHandler(handler);
        Class<?> factory = Class.forName("org.slf4j.LoggerFactory");
        Object logback = factory.getMethod("getLogger", String.class).invoke(null, "host.logback");
        Method info = logback.getClass().getMethod("info", String.class, Object.class);
        Path logbackFile = dir.resolve("logback.log");
        List<String> seen = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            for (int i = 0; i < records; i++) {
                jul.info("jul record " + r + "." + i);
                info.invoke(logback, "logback record {}", r + "." + i);
            }
            seen.add(r + " jul readAllLines " + Files.readAllLines(julFile).size());
            seen.add(r + " logback FileReader " + fileReaderLines(logbackFile));
            try (RandomAccessFile raf = new RandomAccessFile(julFile.toFile(), "r")) {
                seen.add(r + " jul RandomAccessFile length " + raf.length());
            }
            Path copy = dir.resolve("copy-" + r + ".log");
            Files.copy(logbackFile, copy, StandardCopyOption.REPLACE_EXISTING);
            seen.add(r + " logback copy " + Files.readAllLines(copy).size());
            try (var lines = Files.lines(logbackFile)) {
                seen.add(r + " logback lines " + lines.count());
            }
            if (r == 1) {
                Process wc = new ProcessBuilder("wc", "-l", julFile.toString()).redirectErrorStream(true).start();
                String out = new String(wc.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                wc.waitFor();
                seen.add(r + " jul child process " + out.split("\\s+")[0]);
            }
        }
        handler.close();
        Object context = factory.getMethod("getILoggerFactory").invoke(null);
        context.getClass().getMethod("stop").invoke(context);
        seen.forEach(System.out::println);
    }

    private static int fileReaderLines(Path file) throws Exception {
        int n = 0;
        try (BufferedReader in = new BufferedReader(new FileReader(file.toFile()))) {
            while (in.readLine() != null) {
                n++;
            }
        }
        return n;
    }
}
